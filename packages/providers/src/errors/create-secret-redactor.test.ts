import { describe, expect, it } from "vitest";
import { createSecretRedactor } from "./create-secret-redactor";
import { redactSecrets } from "./redact-secrets";

const KEY = "sk-ant-api03-CANARYq7Zp2Lw9Xv4Nb8Tr1Ks6Hd3Fm5Jc0Gy-6655";

/** Every 8-character run of the key that is still in `text`. */
function runsLeft(text: string, secret = KEY): string[] {
  const left: string[] = [];
  for (let i = 0; i + 8 <= secret.length; i++) {
    if (text.includes(secret.slice(i, i + 8))) left.push(secret.slice(i, i + 8));
  }
  return left;
}

describe("createSecretRedactor", () => {
  const redactor = createSecretRedactor([KEY]);

  it("redacts the key whole, keeping the text around it", () => {
    expect(redactor.redact(`invalid x-api-key: ${KEY}.`)).toBe("invalid x-api-key: [redacted].");
  });

  it("redacts every run of 8 or more characters of the key, anywhere", () => {
    for (let start = 0; start + 8 <= KEY.length; start += 3) {
      for (const length of [8, 9, 13, 21]) {
        const part = KEY.slice(start, start + length);
        if (part.length < 8) continue;
        const out = redactor.redact(`key ...${part}... rejected`);
        expect(runsLeft(out), `${part} in ${out}`).toEqual([]);
        expect(out).toContain("rejected");
      }
    }
  });

  it("leaves runs of 7 characters and unrelated text alone", () => {
    const seven = KEY.slice(13, 20);
    expect(redactor.redact(`near ${seven} miss`)).toBe(`near ${seven} miss`);
    expect(redactor.redact("Internal server error")).toBe("Internal server error");
  });

  it("merges adjacent and overlapping echoes into one marker", () => {
    expect(redactor.redact(`${KEY.slice(0, 20)}${KEY.slice(15, 40)} end`)).toBe("[redacted] end");
    expect(redactor.redact(`a ${KEY} b ${KEY} c`)).toBe("a [redacted] b [redacted] c");
  });

  it("redacts masked echoes: sk-…abcd, sk-ab***xyz, CANARY***6655, ****6655", () => {
    const cases = [
      `provided: ${KEY.slice(0, 3)}…${KEY.slice(-4)}.`,
      `provided: ${KEY.slice(0, 5)}***${KEY.slice(-3)}.`,
      `provided: CANARY***${KEY.slice(-4)}.`,
      `provided: ****${KEY.slice(-4)}.`,
      `provided: ${KEY.slice(0, 6)}•••••.`,
      `provided: ${KEY.slice(0, 4)}...${KEY.slice(-2)}.`,
    ];
    for (const text of cases) expect(redactor.redact(text), text).toBe("provided: [redacted].");
  });

  it("redacts a text with 200,000 masked echoes (more than a call takes arguments)", () => {
    const echo = `provided: ****${KEY.slice(-4)}. `;
    expect(redactor.redact(echo.repeat(200_000))).toBe("provided: [redacted]. ".repeat(200_000));
  });

  it("leaves masks that show too little of the key, or another key, alone", () => {
    expect(redactor.redact("**Note**: wait...")).toBe("**Note**: wait...");
    expect(redactor.redact("key sk-…ab")).toBe("key sk-…ab");
    expect(redactor.redact("other CANARY***1234")).toBe("other CANARY***1234");
  });

  it("redacts URL userinfo whatever the secrets", () => {
    const plain = createSecretRedactor();
    expect(plain.redact("GET https://user:pass@example.com/v1 failed")).toBe(
      "GET https://[redacted]@example.com/v1 failed",
    );
    expect(plain.redact('{"url":"http://tok@h:8/x"}')).toBe('{"url":"http://[redacted]@h:8/x"}');
    expect(plain.redact("mail me@example.com, see https://example.com/a@b")).toBe(
      "mail me@example.com, see https://example.com/a@b",
    );
  });

  it("learns a URL's password (raw and decoded) so that echoes of it go too", () => {
    const urls = createSecretRedactor();
    urls.addUrlCredentials("http://arbor-user:pa%24%24word-Lq8Zr3@127.0.0.1:9/v1");
    expect(urls.size).toBe(2);
    expect(urls.redact("password pa$$word-Lq8Zr3 rejected")).toBe("password [redacted] rejected");
    expect(urls.redact("arbor-user is fine")).toBe("arbor-user is fine");
    urls.addUrlCredentials("https://ghp_tokenAsUserName0123@github.com/x");
    expect(urls.redact("ghp_tokenAsUserName0123")).toBe("[redacted]");
    urls.addUrlCredentials("not a url");
    expect(urls.size).toBe(3);
  });

  it("redacts short secrets (4 to 7 characters) only whole, and ignores shorter ones", () => {
    const short = createSecretRedactor(["abc", "s3cr3t", undefined, ""]);
    expect(short.size).toBe(1);
    expect(short.redact("abc s3cr3t s3cr")).toBe("abc [redacted] s3cr");
  });

  it("grows with add and ignores duplicates", () => {
    const growing = createSecretRedactor();
    expect(growing.redact(KEY)).toBe(KEY);
    growing.add(KEY, KEY);
    expect(growing.size).toBe(1);
    expect(growing.redact(KEY)).toBe("[redacted]");
  });

  it("redacts key-shaped tokens only when asked", () => {
    expect(createSecretRedactor().redact("use sk-learn-pipeline")).toBe("use sk-learn-pipeline");
    expect(createSecretRedactor([], { keyShaped: true }).redact("key sk-zz***qq9 bad")).toBe(
      "key [redacted] bad",
    );
  });

  it("stays linear on a large body with many secrets", () => {
    const keys = Array.from({ length: 20 }, (_, i) => `${KEY.slice(0, 20)}${i}${"x".repeat(200)}${i}`);
    const many = createSecretRedactor(keys);
    const body = `${"ab*".repeat(200_000)}${KEY.slice(0, 20)}7${"x".repeat(30)}${"...".repeat(100_000)}`;
    const out = many.redact(body);
    expect(out.endsWith(`[redacted]${"...".repeat(100_000)}`)).toBe(true);
    expect(out.length).toBeLessThan(body.length);
  });
});

describe("redactSecrets", () => {
  it("does what the redactor does, key-shaped tokens included", () => {
    const text = `Incorrect API key provided: sk-zz***qq9; sent ${KEY.slice(5, 30)} to https://u:p@h/v1`;
    expect(redactSecrets(text, [KEY])).toBe(
      "Incorrect API key provided: [redacted]; sent [redacted] to https://[redacted]@h/v1",
    );
  });
});
