import { defineExtension } from "@arbor/extensions";
import { textReply, toolCallReply } from "@arbor/providers/testing";
import { afterEach, describe, expect, it } from "vitest";
import type { HookErrorNotice } from "../../src/events/session-events";
import type { RuntimeExtensionApi } from "../../src/extensions/runtime-extension-api";
import {
  bigReadTool,
  closeHarnesses,
  conversationText,
  createHarness,
  scriptReplies,
} from "../helpers/harness";

afterEach(closeHarnesses);

const never = () => new Promise<never>(() => {});

const misbehaving = defineExtension<RuntimeExtensionApi>({
  apiVersion: 1,
  name: "misbehaving",
  setup(api) {
    api.on("context", () => {
      throw new Error("context handler exploded");
    });
    api.on("before_provider_request", never);
    api.on("turn_end", () => {
      throw new Error("turn_end handler exploded");
    });
    api.on("session_before_compact", never);
    api.on("session_compact", () => Promise.reject(new Error("session_compact handler rejected")));
  },
});

describe("an extension that throws or hangs", () => {
  it("does not break the session: requests go out, compaction happens, failures are reported", async () => {
    const h = await createHarness({
      extensions: [misbehaving],
      extensionTimeoutMs: 30,
      settings: { compaction: { reserveTokens: 10_000, keepRecentTokens: 4000 } },
      tools: [bigReadTool(60_000)],
    });
    scriptReplies(
      h.server,
      [
        textReply("noted", { usage: { input: 15_100, output: 100 } }),
        toolCallReply("read", { path: "big.txt" }, { usage: { input: 15_300, output: 20 } }),
        textReply("done"),
      ],
      [textReply("SUMMARY"), textReply("PREFIX")],
    );
    await h.session.prompt(`remember ${"p".repeat(60_000)}`);
    const result = await h.session.prompt("read big.txt");

    expect(result.error).toBeUndefined();
    expect(result.lastAssistant?.content).toEqual([{ type: "text", text: "done" }]);
    expect(h.agentRequests()).toHaveLength(3);
    expect(conversationText(h.agentRequests()[2])).toContain("contents of big.txt");
    const compaction = h.fileEntries().find((entry) => entry.type === "compaction");
    expect(compaction).toMatchObject({ type: "compaction", fromHook: false });

    const failures = h.events.filter((event): event is HookErrorNotice => event.type === "hook_error");
    const seen = new Set(failures.map((event) => `${event.hookName}:${event.error.code}`));
    expect([...seen].sort()).toEqual([
      "before_provider_request:HOOK_TIMEOUT",
      "context:HOOK_FAILED",
      "session_before_compact:HOOK_TIMEOUT",
      "session_compact:HOOK_FAILED",
      "turn_end:HOOK_FAILED",
    ]);
    expect(failures.every((event) => event.extensionId === "misbehaving")).toBe(true);
  });

  it("a failing extension setup is a typed error naming the extension", async () => {
    const broken = defineExtension<RuntimeExtensionApi>({
      apiVersion: 1,
      name: "broken-setup",
      setup() {
        throw new Error("no config");
      },
    });
    await expect(createHarness({ extensions: [broken] })).rejects.toMatchObject({
      code: "EXTENSION_SETUP_FAILED",
      message: expect.stringContaining("broken-setup"),
    });
  });

  it("a non-positive handler timeout is a typed error", async () => {
    await expect(createHarness({ extensionTimeoutMs: 0 })).rejects.toMatchObject({
      code: "INVALID_ARGUMENT",
    });
  });
});
