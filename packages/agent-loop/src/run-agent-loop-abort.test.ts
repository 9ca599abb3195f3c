import { createScriptedProvider } from "@arbor/providers/testing";
import { describe, expect, it } from "vitest";
import { recordEvents, textOf, user } from "../test/support/record-events";
import { testModel } from "../test/support/test-model";
import type { AgentTool } from "./agent-tool";
import { ABORTED_BEFORE_REQUEST } from "./internal/stream-assistant-response";
import { ABORTED_TOOL_TEXT } from "./internal/tool-result-texts";
import { runAgentLoop } from "./run-agent-loop";

describe("runAgentLoop: abort", () => {
  it("sends no request when the signal is already aborted", async () => {
    const provider = createScriptedProvider([{ content: [{ type: "text", text: "x" }] }]);
    const recorder = recordEvents();
    const result = await runAgentLoop({
      provider,
      model: testModel,
      messages: [user("q")],
      signal: AbortSignal.abort(),
      onEvent: recorder.onEvent,
    });
    expect(provider.calls).toHaveLength(0);
    expect(result.stopReason).toBe("aborted");
    expect(result.messages[0]).toMatchObject({
      role: "assistant",
      stopReason: "aborted",
      errorMessage: ABORTED_BEFORE_REQUEST,
    });
    expect(recorder.labels()).toEqual([
      "agent_start",
      "turn_start:0",
      "message_start:assistant(aborted)",
      "message_end:assistant(aborted)",
      "turn_end:0",
      "agent_end:aborted",
    ]);
  });

  it("aborts the in-flight stream and keeps the partial content", async () => {
    let signal: AbortSignal | undefined;
    const provider = createScriptedProvider([
      (_request, options) => {
        signal = options.signal;
        return { content: [{ type: "text", text: "partial answer" }], chunkSize: 8, eventDelayMs: 1 };
      },
    ]);
    const controller = new AbortController();
    const recorder = recordEvents();
    const result = await runAgentLoop({
      provider,
      model: testModel,
      messages: [user("q")],
      signal: controller.signal,
      onEvent: (event) => {
        recorder.onEvent(event);
        if (event.type === "message_update" && event.assistantMessageEvent.type === "text-delta")
          controller.abort();
      },
    });
    expect(signal?.aborted).toBe(true);
    expect(result.stopReason).toBe("aborted");
    expect(result.messages[0]).toMatchObject({ role: "assistant", stopReason: "aborted" });
    expect(textOf(result.messages[0])).toBe("partial ");
    expect(recorder.labels().slice(-3)).toEqual([
      "message_end:assistant(aborted)",
      "turn_end:0",
      "agent_end:aborted",
    ]);
  });

  it("abandons running tools with aborted results, skips pending ones and starts no new turn", async () => {
    const controller = new AbortController();
    let stuckSignal: AbortSignal | undefined;
    let secondRan = false;
    const stuck: AgentTool = {
      name: "stuck",
      description: "never finishes",
      parameters: { type: "object" },
      executionMode: "sequential",
      execute: (_args, context) => {
        stuckSignal = context.signal;
        setTimeout(() => controller.abort(), 1);
        return new Promise(() => {});
      },
    };
    const after: AgentTool = {
      name: "after",
      description: "runs after",
      parameters: { type: "object" },
      execute: async () => {
        secondRan = true;
        return { content: [] };
      },
    };
    const provider = createScriptedProvider([
      {
        content: [
          { type: "toolCall", id: "1", name: "stuck", arguments: {} },
          { type: "toolCall", id: "2", name: "after", arguments: {} },
        ],
      },
      { content: [{ type: "text", text: "never requested" }] },
    ]);
    const recorder = recordEvents();
    const result = await runAgentLoop({
      provider,
      model: testModel,
      messages: [user("q")],
      tools: [stuck, after],
      signal: controller.signal,
      onEvent: recorder.onEvent,
    });
    expect(stuckSignal?.aborted).toBe(true);
    expect(secondRan).toBe(false);
    expect(provider.calls).toHaveLength(1);
    expect(result.stopReason).toBe("aborted");
    const results = result.messages.filter((message) => message.role === "toolResult");
    expect(results.map((message) => [message.toolCallId, message.isError, textOf(message)])).toEqual([
      ["1", true, ABORTED_TOOL_TEXT],
      ["2", true, ABORTED_TOOL_TEXT],
    ]);
    expect(recorder.labels().slice(-3)).toEqual([
      "message_end:toolResult(2)",
      "turn_end:0",
      "agent_end:aborted",
    ]);
  });

  it("ends as aborted when the abort lands after a complete response", async () => {
    const controller = new AbortController();
    const provider = createScriptedProvider([{ content: [{ type: "text", text: "complete" }] }]);
    const result = await runAgentLoop({
      provider,
      model: testModel,
      messages: [user("q")],
      signal: controller.signal,
      getFollowUpMessages: () => [user("never used")],
      onEvent: (event) => {
        if (event.type === "message_end" && event.message.role === "assistant") controller.abort();
      },
    });
    expect(result.stopReason).toBe("aborted");
    expect(result.messages.map((message) => message.role)).toEqual(["assistant"]);
    expect(provider.calls).toHaveLength(1);
  });
});
