import fs from "node:fs";
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
    expect(h.eventTypes((type) => !type.startsWith("message_update"))).toEqual([
      "agent_start",
      "turn_start",
      "message_start",
      "message_end",
      "message_start",
      "message_end",
      "tool_execution_start",
      "tool_execution_end",
      "message_start",
      "message_end",
      "turn_end",
      "turn_start",
      "message_start",
      "message_end",
      "turn_end",
      "agent_end",
      "agent_settled",
    ]);
  });
});

describe("the session file deleted while the session runs", () => {
  it("rejects the prompt with the store's typed error before anything is written elsewhere", async () => {
    const h = await createHarness({
      tools: [
        {
          name: "remove_session",
          description: "Deletes the session file, as a careless shell command would",
          parameters: { type: "object", properties: {} },
          async execute() {
            fs.unlinkSync(h.file);
            return { content: [{ type: "text", text: "removed" }] };
          },
        },
      ],
    });
    scriptReplies(h.server, [toolCallReply("remove_session", {}), textReply("never sent")]);
    const error = await h.session.prompt("clean up").then(
      () => undefined,
      (rejection: unknown) => rejection as { code?: string; change?: string; recoveredPath?: string },
    );
    expect(error?.code).toBe("SESSION_FILE_CHANGED");
    expect(error?.change).toBe("deleted");
    expect(fs.existsSync(h.file)).toBe(false);
    // The user message and the tool call were on disk before the deletion: they are in the copy.
    const saved = fs.readFileSync(error?.recoveredPath as string, "utf8");
    expect(saved).toContain('"role":"user"');
    expect(saved).toContain("remove_session");
    expect(h.server.requests).toHaveLength(1);
  });
});
