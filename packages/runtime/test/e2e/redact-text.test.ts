import fs from "node:fs";
import { createSecretRedactor } from "@arbor/providers";
import { errorReply } from "@arbor/providers/testing";
import { afterEach, describe, expect, it } from "vitest";
import { closeHarnesses, createHarness } from "../helpers/harness";

afterEach(closeHarnesses);

/** A secret the provider does not know (not its own key): only `redactText` can catch it. */
const OTHER_SECRET = "gh-token-CANARY-0123456789abcdef";

describe("redactText (through the Anthropic SDK and the wire server)", () => {
  it("redacts the error text of an assistant message before it is written, in place", async () => {
    const redactor = createSecretRedactor([OTHER_SECRET]);
    const h = await createHarness({ redactText: (text) => redactor.redact(text) });
    const seen: string[] = [];
    h.session.subscribe((event) => {
      if (event.type === "message_end" && event.message.role === "assistant")
        seen.push(event.message.errorMessage ?? "");
    });
    h.server.enqueue(
      errorReply(400, {
        type: "error",
        error: { type: "invalid_request_error", message: `bad header ${OTHER_SECRET.slice(3, 20)}` },
      }),
    );
    const result = await h.session.prompt("hello");
    expect(result.lastAssistant?.errorMessage).toBe("Anthropic API error (400): bad header [redacted]");
    expect(seen).toEqual(["Anthropic API error (400): bad header [redacted]"]);
    const file = fs.readFileSync(h.file, "utf8");
    expect(file).toContain("bad header [redacted]");
    expect(file).not.toContain(OTHER_SECRET.slice(3, 11));
  });

  it("writes error texts as they are without it", async () => {
    const h = await createHarness();
    h.server.enqueue(
      errorReply(400, {
        type: "error",
        error: { type: "invalid_request_error", message: `bad header ${OTHER_SECRET}` },
      }),
    );
    await h.session.prompt("hello");
    expect(fs.readFileSync(h.file, "utf8")).toContain(OTHER_SECRET);
  });
});
