import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { defineExtension } from "@arbor/extensions";
import { textReply } from "@arbor/providers/testing";
import { afterAll, afterEach, describe, expect, it } from "vitest";
import type { HookErrorNotice } from "../../src/events/session-events";
import type { RuntimeExtensionApi } from "../../src/extensions/runtime-extension-api";
import { closeHarnesses, conversationText, createHarness } from "../helpers/harness";

afterEach(closeHarnesses);

const hookErrors = (events: readonly { type: string }[]) =>
  events.filter((event): event is HookErrorNotice => event.type === "hook_error");

function contextExtension(name: string, handler: (event: { messages: unknown[] }) => unknown) {
  return defineExtension<RuntimeExtensionApi>({
    apiVersion: 1,
    name,
    setup(api) {
      api.on("context", (event) => handler(event as { messages: unknown[] }) as never);
    },
  });
}

describe("the context hook: invalid results are refused", () => {
  const cases: Array<[string, (event: { messages: unknown[] }) => unknown, RegExp]> = [
    [
      "{ messages: 'x' }",
      () => ({ messages: "x" }),
      /messages must be an array of messages, got the string "x"/,
    ],
    ["an array of non-messages", () => ({ messages: [1, "two", null] }), /messages\[0\] is not a message/],
    [
      "a message with bad content",
      () => ({ messages: [{ role: "user", content: 5 }] }),
      /messages\[0\]\.content/,
    ],
    ["an empty list", () => ({ messages: [] }), /messages is empty/],
    [
      "event.messages edited into garbage in place",
      (event) => {
        event.messages.push(42);
        return undefined;
      },
      /event\.messages was left invalid .*messages\[\d+\] is not a message/,
    ],
  ];

  it.each(cases)(
    "%s: a hook_error naming the extension, and the request keeps the original messages",
    async (_name, handler, problem) => {
      const h = await createHarness({ extensions: [contextExtension("garbler", handler)] });
      h.server.enqueue(textReply("first"), textReply("second"));
      await h.session.prompt("hello there");
      const result = await h.session.prompt("and again");
      expect(result.lastAssistant?.content).toEqual([{ type: "text", text: "second" }]);
      const sent = conversationText(h.server.requests[1]);
      expect(sent).toContain("hello there");
      expect(sent).toContain("first");
      expect(sent).toContain("and again");
      const errors = hookErrors(h.events);
      expect(errors.length).toBeGreaterThan(0);
      for (const error of errors) {
        expect(error).toMatchObject({ hookName: "context", extensionId: "garbler" });
        expect(error.error.code).toBe("HOOK_INVALID_RESULT");
        expect(error.error.message).toMatch(problem);
      }
    },
  );

  it("keeps a valid result of an earlier extension when a later one returns garbage", async () => {
    const trimmer = contextExtension("trimmer", (event) => ({ messages: event.messages.slice(-1) }));
    const garbler = contextExtension("garbler", () => ({ messages: "x" }));
    const h = await createHarness({ extensions: [trimmer, garbler] });
    h.server.enqueue(textReply("first"), textReply("second"));
    await h.session.prompt("hello there");
    await h.session.prompt("and again");
    const sent = conversationText(h.server.requests[1]);
    expect(sent).toContain("and again");
    expect(sent).not.toContain("hello there");
    expect(hookErrors(h.events).map((event) => event.extensionId)).toEqual(["garbler", "garbler"]);
  });
});

describe("handlers get copies of the session's messages", () => {
  it("a handler mutating a message (content made a string) does not crash the next request", async () => {
    const vandal = defineExtension<RuntimeExtensionApi>({
      apiVersion: 1,
      name: "vandal",
      setup(api) {
        api.on("message_end", (event) => {
          (event.message as unknown as { content: unknown }).content = "not an array";
        });
        api.on("turn_end", (event) => {
          event.toolResults.length = 0;
          (event.message as unknown as { role: string }).role = "nobody";
        });
        api.on("before_provider_request", (event) => {
          event.request.messages.length = 0;
          return undefined;
        });
      },
    });
    const h = await createHarness({ extensions: [vandal] });
    h.server.enqueue(textReply("first"), textReply("second"));
    await h.session.prompt("hello there");
    const result = await h.session.prompt("and again");
    expect(result.error).toBeUndefined();
    expect(result.lastAssistant?.content).toEqual([{ type: "text", text: "second" }]);
    expect(conversationText(h.server.requests[1])).toContain("hello there");
    expect(hookErrors(h.events)).toEqual([]);
    const roles = h
      .fileEntries()
      .map((entry) => (entry.type === "message" ? entry.message.role : entry.type));
    expect(roles).toEqual(["user", "assistant", "user", "assistant"]);
  });
});

describe("extensions that never finish loading", () => {
  const dir = mkdtempSync(path.join(tmpdir(), "arbor-runtime-extensions-"));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it("an import that never settles fails with EXTENSION_TIMEOUT naming the file", async () => {
    const file = path.join(dir, "never.mjs");
    writeFileSync(
      file,
      'await new Promise(() => {});\nexport default { apiVersion: 1, name: "never", setup() {} };\n',
    );
    await expect(createHarness({ extensions: [file], extensionTimeoutMs: 200 })).rejects.toMatchObject({
      code: "EXTENSION_TIMEOUT",
      file,
      message: expect.stringContaining("import did not finish within 200 ms"),
    });
  });

  it("a setup that never settles fails with EXTENSION_TIMEOUT naming the extension", async () => {
    const stuck = defineExtension<RuntimeExtensionApi>({
      apiVersion: 1,
      name: "stuck-setup",
      setup: () => new Promise<void>(() => {}),
    });
    await expect(createHarness({ extensions: [stuck], extensionTimeoutMs: 200 })).rejects.toMatchObject({
      code: "EXTENSION_TIMEOUT",
      extensionName: "stuck-setup",
      message: 'Extension "stuck-setup" did not finish setup within 200 ms',
    });
  });
});
