import type { TranscriptMessage } from "@arbor/providers";
import { createScriptedProvider } from "@arbor/providers/testing";
import { describe, expect, it } from "vitest";
import { recordEvents, textOf, user } from "../test/support/record-events";
import { testModel } from "../test/support/test-model";
import type { NormalizeContextInput } from "./agent-loop-config";
import type { AgentMessage } from "./agent-message";
import type { AgentTool } from "./agent-tool";
import { convertToLlm } from "./convert-to-llm";
import { normalizeContext } from "./normalize-context";
import { runAgentLoop } from "./run-agent-loop";

const noop: AgentTool = {
  name: "noop",
  description: "does nothing",
  parameters: { type: "object" },
  execute: async () => ({ content: [{ type: "text", text: "ok" }] }),
};
const text = (value: string) => ({ content: [{ type: "text" as const, text: value }] });
const toolCall = { content: [{ type: "toolCall" as const, id: "t", name: "noop", arguments: {} }] };

describe("runAgentLoop: seams", () => {
  it("calls transformContext, convertToLlm, normalizeContext in that order before every request", async () => {
    const provider = createScriptedProvider([toolCall, text("done")]);
    const calls: string[] = [];
    const note = {
      role: "custom" as const,
      customType: "n",
      content: "injected",
      display: false,
      timestamp: 3,
    };
    await runAgentLoop({
      provider,
      model: testModel,
      messages: [user("q")],
      tools: [noop],
      systemPrompt: async () => {
        calls.push("systemPrompt");
        return "dynamic prompt";
      },
      transformContext: (messages, signal) => {
        calls.push(`transformContext(${messages.length})`);
        expect(signal).toBeInstanceOf(AbortSignal);
        return [...messages, note];
      },
      convertToLlm: (messages) => {
        calls.push(`convertToLlm(${messages.length})`);
        return convertToLlm(messages);
      },
      normalizeContext: (input: NormalizeContextInput) => {
        calls.push(`normalizeContext(${input.messages.length})`);
        expect(input.systemPrompt).toBe("dynamic prompt");
        expect(input.tools.map((tool) => tool.name)).toEqual(["noop"]);
        expect(input.model).toBe(testModel);
        return normalizeContext(input);
      },
    });
    expect(calls).toEqual([
      "transformContext(1)",
      "convertToLlm(2)",
      "systemPrompt",
      "normalizeContext(2)",
      "transformContext(3)",
      "convertToLlm(4)",
      "systemPrompt",
      "normalizeContext(4)",
    ]);
    expect(provider.calls[0]?.request.messages.map(textOf)).toEqual(["q", "injected"]);
    expect(provider.calls[0]?.request.systemPrompt).toBe("dynamic prompt");
  });

  it("folds transcript system messages into the request by default", async () => {
    const provider = createScriptedProvider([text("ok")]);
    const system: AgentMessage = {
      role: "system",
      content: "From the transcript.",
      toolsAdded: [{ name: "declared", description: "d", parameters: { type: "object" } }],
      timestamp: 0,
    };
    await runAgentLoop({
      provider,
      model: testModel,
      messages: [system, user("q")],
      systemPrompt: "Config first.",
    });
    const request = provider.calls[0]?.request;
    expect(request?.systemPrompt).toBe("Config first.\n\nFrom the transcript.");
    expect(request?.tools?.map((tool) => tool.name)).toEqual(["declared"]);
    expect(request?.messages.map((message) => message.role)).toEqual(["user"]);
  });

  it("ends the turn with an error message naming the seam that threw", async () => {
    const provider = createScriptedProvider([text("never")]);
    const result = await runAgentLoop({
      provider,
      model: testModel,
      messages: [user("q")],
      convertToLlm: (): TranscriptMessage[] => {
        throw new Error("bad role");
      },
    });
    expect(provider.calls).toHaveLength(0);
    expect(result.stopReason).toBe("error");
    expect(result.messages[0]).toMatchObject({
      stopReason: "error",
      errorMessage: "convertToLlm failed: bad role",
    });
  });
});

describe("runAgentLoop: steering, follow-ups and prepareNextTurn", () => {
  it("injects steering after the current tool calls and follow-ups once the agent would stop", async () => {
    const provider = createScriptedProvider([toolCall, text("saw steering"), text("saw follow-up")]);
    const steering = [[], [user("steer")], []];
    const followUps = [[user("follow")], []];
    const recorder = recordEvents();
    const result = await runAgentLoop({
      provider,
      model: testModel,
      messages: [],
      prompts: [user("start")],
      tools: [noop],
      getSteeringMessages: () => steering.shift() ?? [],
      getFollowUpMessages: async () => followUps.shift() ?? [],
      onEvent: recorder.onEvent,
    });
    expect(result.messages.map((message) => `${message.role}:${textOf(message)}`)).toEqual([
      "user:start",
      "assistant:",
      "toolResult:ok",
      "user:steer",
      "assistant:saw steering",
      "user:follow",
      "assistant:saw follow-up",
    ]);
    expect(provider.calls.map((entry) => entry.request.messages.length)).toEqual([1, 4, 6]);
    expect(recorder.labels().filter((label) => label.startsWith("turn_") || label.includes("user"))).toEqual([
      "turn_start:0",
      "message_start:user",
      "message_end:user",
      "turn_end:0",
      "turn_start:1",
      "message_start:user",
      "message_end:user",
      "turn_end:1",
      "turn_start:2",
      "message_start:user",
      "message_end:user",
      "turn_end:2",
    ]);
  });

  it("calls prepareNextTurn between turns only and applies its context and model", async () => {
    const provider = createScriptedProvider([toolCall, text("after compaction")]);
    const otherModel = { ...testModel, id: "bigger-model" };
    const seen: Array<{ turnIndex: number; count: number; last: string }> = [];
    const order: string[] = [];
    const result = await runAgentLoop({
      provider,
      model: testModel,
      messages: [user("old"), user("q")],
      tools: [noop],
      prepareNextTurn: (context) => {
        seen.push({
          turnIndex: context.turnIndex,
          count: context.messages.length,
          last: context.lastMessage.stopReason,
        });
        order.push("prepareNextTurn");
        return {
          messages: [
            { role: "compactionSummary", summary: "S", tokensBefore: 9, timestamp: 2 },
            ...context.messages.slice(2),
          ],
          model: otherModel,
        };
      },
      onEvent: (event) => {
        if (event.type.startsWith("turn_")) order.push(event.type);
      },
    });
    expect(seen).toEqual([{ turnIndex: 1, count: 4, last: "toolUse" }]);
    expect(order).toEqual(["turn_start", "turn_end", "prepareNextTurn", "turn_start", "turn_end"]);
    const second = provider.calls[1]?.request;
    expect(second?.model).toEqual(otherModel);
    expect(second?.messages.map((message) => message.role)).toEqual(["user", "assistant", "toolResult"]);
    expect(textOf(second?.messages[0])).toContain("S");
    expect(result.context).toHaveLength(4);
  });

  it("ends the run with an error message when a hook throws", async () => {
    const provider = createScriptedProvider([toolCall, text("never")]);
    const result = await runAgentLoop({
      provider,
      model: testModel,
      messages: [user("q")],
      tools: [noop],
      prepareNextTurn: () => {
        throw new Error("store unavailable");
      },
    });
    expect(provider.calls).toHaveLength(1);
    expect(result.stopReason).toBe("error");
    expect(result.messages.at(-1)).toMatchObject({
      role: "assistant",
      stopReason: "error",
      errorMessage: "prepareNextTurn failed: store unavailable",
    });
  });

  it("reports a failing steering poll the same way", async () => {
    const provider = createScriptedProvider([text("never")]);
    const result = await runAgentLoop({
      provider,
      model: testModel,
      messages: [],
      prompts: [user("q")],
      getSteeringMessages: () => Promise.reject(new Error("queue closed")),
    });
    expect(provider.calls).toHaveLength(0);
    expect(result.messages.map((message) => message.role)).toEqual(["user", "assistant"]);
    expect(result.messages[1]).toMatchObject({ errorMessage: "getSteeringMessages failed: queue closed" });
  });
});
