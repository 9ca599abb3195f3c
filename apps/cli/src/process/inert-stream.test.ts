import { Writable } from "node:stream";
import { createSecretRedactor } from "@arbor/providers";
import { describe, expect, it } from "vitest";
import { inertStream } from "./inert-stream";

/** A stream that keeps what it is given, as given. */
function keeping() {
  const chunks: unknown[] = [];
  return { chunks, stream: { write: (chunk: string) => chunks.push(chunk) } };
}

const ESC = "\u001b";

describe("inertStream writeBytes", () => {
  it("hands plain text's bytes to a Node stream as they are, and its text to any other stream", () => {
    const given: unknown[] = [];
    const node = new Writable({
      write(chunk, _encoding, done) {
        given.push(chunk);
        done();
      },
    });
    const bytes = Buffer.from("row one ├─ café\nrow two\n");
    inertStream(node, createSecretRedactor(), true).writeBytes?.(bytes);
    expect(given).toEqual([bytes]);
    const other = keeping();
    inertStream(other.stream, createSecretRedactor(), true).writeBytes?.(bytes);
    expect(other.chunks).toEqual(["row one ├─ café\nrow two\n"]);
  });

  it("makes escape sequences, control characters and bidi overrides inert, as write does", () => {
    const text = `a${ESC}]52;c;cm0gLXJmIH4=\u0007b${ESC}[2Jc\u009b2Jd\r\ne\u202ef\u0000\n`;
    const out = keeping();
    inertStream(out.stream, createSecretRedactor(), true).writeBytes?.(Buffer.from(text));
    expect(out.chunks).toEqual(["abcd\nef\n"]);
  });

  it("decodes bytes that are not valid UTF-8 (never hands a raw 0x9b on)", () => {
    const out = keeping();
    inertStream(out.stream, createSecretRedactor(), true).writeBytes?.(Buffer.from([0x61, 0x9b, 0x62]));
    expect(out.chunks).toEqual(["a\ufffdb"]);
  });

  it("redacts known secrets and URL userinfo", () => {
    const redactor = createSecretRedactor();
    const out = keeping();
    const stream = inertStream(out.stream, redactor, true);
    stream.writeBytes?.(Buffer.from("see https://user:hunter22@example.com/x\n"));
    redactor.add("sk-secret-value-1234");
    stream.writeBytes?.(Buffer.from("key sk-secret-value-1234 here\n"));
    expect(out.chunks).toEqual(["see https://[redacted]@example.com/x\n", "key [redacted] here\n"]);
  });

  it("lets a redactor it did not make see every text", () => {
    const out = keeping();
    const stream = inertStream(out.stream, createSecretRedactor([], { keyShaped: true }), false);
    stream.writeBytes?.(Buffer.from("token sk-abcdef123456\n"));
    expect(out.chunks).toEqual(["token [redacted]\n"]);
  });
});
