import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { textReply, toolCallReply } from "@arbor/providers/testing";
import { afterEach, describe, expect, it } from "vitest";
import type { PiExtensionApi } from "../../src/extensions/pi/pi-extension-api";
import {
  bigReadTool,
  closeHarnesses,
  conversationText,
  createHarness,
  scriptReplies,
} from "../helpers/harness";

afterEach(closeHarnesses);

describe("pi-style extensions (export default function (pi) { … })", () => {
  it("an inline factory gets pi.on with (event, ctx), appendEntry, setSessionName, getSessionName", async () => {
    const seen: string[] = [];
    function recorder(pi: PiExtensionApi) {
      pi.on("turn_end", (event, ctx) => {
        seen.push(
          `${event.type}:${ctx.sessionManager.getSessionId() === ctx.sessionManager.getHeader().id}:${ctx.hasUI}`,
        );
        pi.appendEntry("pi-state", { turn: event.turnIndex });
        pi.setSessionName("named by pi");
      });
    }
    const h = await createHarness({ extensions: [recorder] });
    scriptReplies(h.server, [textReply("hi")]);
    await h.session.prompt("hello");
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(seen).toEqual(["turn_end:true:false"]);
    expect(h.fileEntries().map((entry) => entry.type)).toEqual([
      "message",
      "message",
      "custom",
      "session_info",
    ]);
    expect(h.store.getSessionName()).toBe("named by pi");
  });

  it("a file whose default export is a function loads as a pi extension named after the file", async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "arbor-pi-ext-"));
    const file = path.join(dir, "mask-reads.mjs");
    fs.writeFileSync(
      file,
      `export default function (pi) {
  pi.on("turn_end", (event) => {
    if (event.toolResultEntryIds.length === 0) return;
    return {
      entries: [...event.entries, ...event.toolResultEntryIds.map((targetId) => ({
        type: "context_edit", targetId, replacement: { content: "[output masked by " + pi.getSessionName() + "]" },
      }))],
    };
  });
}
`,
    );
    try {
      const h = await createHarness({ extensions: [file], tools: [bigReadTool(3000)] });
      scriptReplies(h.server, [toolCallReply("read", { path: "a" }), textReply("done")]);
      await h.session.prompt("read a");
      const second = conversationText(h.agentRequests()[1]);
      expect(second).toContain("[output masked by undefined]");
      expect(second).not.toContain("x".repeat(100));
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });

  it("an unsupported member fails setup with EXTENSION_UNSUPPORTED naming it", async () => {
    function toolMaker(pi: PiExtensionApi) {
      (pi as unknown as { registerTool(tool: unknown): void }).registerTool({ name: "x" });
    }
    const failure = await createHarness({ extensions: [toolMaker] }).catch((error: unknown) => error);
    expect(failure).toMatchObject({
      code: "EXTENSION_UNSUPPORTED",
      member: "pi.registerTool",
      extensionName: "toolMaker",
    });
    expect((failure as Error).message).toContain("pi.registerTool");
    expect((failure as Error).message).toContain("appendEntry");
  });

  it("an unsupported ctx member called in a handler is a hook_error naming it", async () => {
    function notifier(pi: PiExtensionApi) {
      pi.on("agent_end", (_event, ctx) => {
        (ctx as unknown as { ui: { select(title: string): void } }).ui.select("pick one");
      });
    }
    const h = await createHarness({ extensions: [notifier] });
    scriptReplies(h.server, [textReply("hi")]);
    await h.session.prompt("hello");
    const error = h.events.find((event) => event.type === "hook_error");
    expect(error).toMatchObject({ extensionId: "notifier", hookName: "agent_end" });
    expect(error?.type === "hook_error" && error.error.message).toContain("ctx.ui.select");
  });
});

describe("pi-style ctx: ui, mode, hasUI, modelRegistry", () => {
  it("ctx.ui.notify reaches listeners, ctx.mode follows the session's mode, dialogs are unsupported", async () => {
    const seen: string[] = [];
    function notifier(pi: PiExtensionApi) {
      pi.on("session_before_compact", (event, ctx) => {
        seen.push(`${ctx.mode}:${ctx.hasUI}:${ctx.modelRegistry.find("anthropic", "claude-haiku-4-5")?.id}`);
        ctx.ui.notify(`compacting (${event.reason})`, "warning");
        try {
          (ctx.ui as unknown as { select(): void }).select();
        } catch (error) {
          seen.push((error as { code?: string }).code ?? "no code");
        }
        return undefined;
      });
    }
    const h = await createHarness({
      mode: "interactive",
      extensions: [notifier],
      settings: { compaction: { reserveTokens: 10_000, keepRecentTokens: 2000 } },
    });
    scriptReplies(h.server, [textReply("one"), textReply("two")], [textReply("## Goal\nS")]);
    await h.session.prompt(`first ${"a".repeat(12_000)}`);
    await h.session.prompt(`second ${"b".repeat(12_000)}`);
    await h.session.compact();
    expect(seen).toEqual(["tui:true:claude-haiku-4-5", "EXTENSION_UNSUPPORTED"]);
    expect(h.events.filter((event) => event.type === "extension_notice")).toEqual([
      { type: "extension_notice", extensionId: "notifier", message: "compacting (manual)", level: "warning" },
    ]);
  });
});
