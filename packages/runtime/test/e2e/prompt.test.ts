import { textReply, toolCallReply } from "@arbor/providers/testing";
import { afterEach, describe, expect, it } from "vitest";
import {
  bigReadTool,
  closeHarnesses,
  conversationText,
  createHarness,
  scriptReplies,
} from "../helpers/harness";

afterEach(closeHarnesses);

describe("prompt (through the Anthropic SDK and the wire server)", () => {
  it("persists the user message, tool call, tool result and answer as entries, in order", async () => {
    const h = await createHarness({ tools: [bigReadTool(10)] });
    scriptReplies(h.server, [toolCallReply("read", { path: "a.ts" }), textReply("all done")]);
    const result = await h.session.prompt("read a.ts");
    expect(result.error).toBeUndefined();
    expect(result.stopReason).toBe("stop");
    const roles = h
      .fileEntries()
      .map((entry) => (entry.type === "message" ? entry.message.role : entry.type));
    expect(roles).toEqual(["user", "assistant", "toolResult", "assistant"]);
    expect(conversationText(h.server.requests[1])).toContain("contents of a.ts");
    expect(h.eventTypes((type) => !type.startsWith("message-update"))).toEqual([
      "agent-start",
      "turn-start",
      "message-start",
      "message-end",
      "message-start",
      "message-end",
      "tool-execution-start",
      "tool-execution-end",
      "message-start",
      "message-end",
      "turn-end",
      "turn-start",
      "message-start",
      "message-end",
      "turn-end",
      "agent-end",
    ]);
  });
});
