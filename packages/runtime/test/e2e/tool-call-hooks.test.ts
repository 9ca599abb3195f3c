/** pi's `tool_call` (block, edit arguments) and `tool_result` (replace the result), through createAgentSession. */
import { defineExtension } from "@arbor/extensions";
import { textReply, toolCallReply } from "@arbor/providers/testing";
import { afterEach, describe, expect, it } from "vitest";
import type { PiExtensionApi } from "../../src/extensions/pi/pi-extension-api";
import type { RuntimeExtensionApi } from "../../src/extensions/runtime-extension-api";
import { bigReadTool, closeHarnesses, conversationText, createHarness } from "../helpers/harness";

afterEach(closeHarnesses);

function toolResults(h: Awaited<ReturnType<typeof createHarness>>) {
  return h
    .fileEntries()
    .flatMap((entry) =>
      entry.type === "message" && entry.message.role === "toolResult" ? [entry.message] : [],
    );
}

describe("tool_call and tool_result hooks", () => {
  it("tool_call blocks a call: the tool does not run, the model reads the reason; a later handler cannot lift it", async () => {
    const calls: string[] = [];
    const guard = defineExtension<RuntimeExtensionApi>({
      apiVersion: 1,
      name: "guard",
      setup(api) {
        api.on("tool_call", (event) =>
          String(event.input.path).startsWith("secrets/")
            ? { block: true, reason: `reading ${String(event.input.path)} is not allowed` }
            : undefined,
        );
      },
    });
    const lenient = defineExtension<RuntimeExtensionApi>({
      apiVersion: 1,
      name: "lenient",
      setup(api) {
        api.on("tool_call", () => ({ block: false }));
      },
    });
    const h = await createHarness({ extensions: [guard, lenient], tools: [bigReadTool(10, calls)] });
    h.server.enqueue(
      toolCallReply("read", { path: "secrets/key.txt" }),
      toolCallReply("read", { path: "src/app.ts" }),
      textReply("done"),
    );
    await h.session.prompt("read the files");
    expect(calls).toEqual(["src/app.ts"]);
    const [blocked, allowed] = toolResults(h);
    expect(blocked).toMatchObject({
      isError: true,
      content: [{ type: "text", text: "reading secrets/key.txt is not allowed" }],
    });
    expect(allowed?.isError).toBe(false);
    expect(conversationText(h.server.requests[1])).toContain("reading secrets/key.txt is not allowed");
  });

  it("tool_call edits the arguments in place; tool_result replaces what the model and the file get (pi-style)", async () => {
    const calls: string[] = [];
    function redactor(pi: PiExtensionApi) {
      pi.on("tool_call", (event) => {
        event.input.path = `sandbox/${String(event.input.path)}`;
      });
      pi.on("tool_result", (event) => ({
        content: [
          {
            type: "text" as const,
            text: `[${event.toolName} output of ${String(event.input.path)} redacted]`,
          },
        ],
      }));
    }
    const h = await createHarness({ extensions: [redactor], tools: [bigReadTool(10, calls)] });
    h.server.enqueue(toolCallReply("read", { path: "notes.txt" }), textReply("ok"));
    await h.session.prompt("read notes");
    expect(calls).toEqual(["sandbox/notes.txt"]);
    expect(toolResults(h)[0]?.content).toEqual([
      { type: "text", text: "[read output of sandbox/notes.txt redacted]" },
    ]);
    expect(conversationText(h.server.requests[1])).not.toContain("contents of");
  });

  it("a failing tool_call handler does not block, and an invalid tool_result is ignored (hook errors)", async () => {
    const calls: string[] = [];
    const broken = defineExtension<RuntimeExtensionApi>({
      apiVersion: 1,
      name: "broken",
      setup(api) {
        api.on("tool_call", () => {
          throw new Error("guard crashed");
        });
        api.on("tool_result", () => ({ content: "not an array" }) as never);
      },
    });
    const h = await createHarness({ extensions: [broken], tools: [bigReadTool(10, calls)] });
    h.server.enqueue(toolCallReply("read", { path: "a.txt" }), textReply("ok"));
    await h.session.prompt("read a");
    expect(calls).toEqual(["a.txt"]);
    expect(toolResults(h)[0]?.content[0]).toMatchObject({
      type: "text",
      text: expect.stringContaining("contents of a.txt"),
    });
    const codes = h.events.flatMap((event) => (event.type === "hook_error" ? [event.error.code] : []));
    expect(codes).toEqual(["HOOK_FAILED", "HOOK_INVALID_RESULT"]);
  });
});
