import type { ToolResultMessage } from "@arbor/providers";
import { createScriptedProvider } from "@arbor/providers/testing";
import { describe, expect, it } from "vitest";
import { recordEvents, textOf, user } from "../test/support/record-events";
import { testModel } from "../test/support/test-model";
import { AgentLoopError } from "./agent-loop-error";
import type { AgentMessage } from "./agent-message";
import type { AgentTool } from "./agent-tool";
import { runAgentLoop } from "./run-agent-loop";

const echo: AgentTool = {
  name: "echo",
  description: "Echo the text back",
  parameters: { type: "object", properties: { text: { type: "string" } }, required: ["text"] },
  async execute(args, context) {
    context.onUpdate({ content: [{ type: "text", text: "working" }] });
    return {
      content: [{ type: "text", text: `echo:${String(args.text)}` }],
      details: { id: context.toolCallId },
    };
  },
};

describe("runAgentLoop: turns and events", () => {
  it("streams one response and emits the documented event order", async () => {
    const provider = createScriptedProvider([{ content: [{ type: "text", text: "Hello" }] }]);
    const recorder = recordEvents();
    const history: AgentMessage[] = [user("earlier")];
    const result = await runAgentLoop({
      provider,
      model: testModel,
      messages: history,
      prompts: [user("hi")],
      onEvent: recorder.onEvent,
    });
    expect(recorder.labels()).toEqual([
      "agent_start",
      "turn_start:0",
      "message_start:user",
      "message_end:user",
      "message_start:assistant(stop)",
      "message_update:text-start",
      "message_update:text-delta",
      "message_update:text-end",
      "message_end:assistant(stop)",
      "turn_end:0",
      "agent_end:stop",
    ]);
    expect(result.stopReason).toBe("stop");
    expect(result.messages.map((message) => message.role)).toEqual(["user", "assistant"]);
    expect(textOf(result.messages[1])).toBe("Hello");
    expect(result.context.map(textOf)).toEqual(["earlier", "hi", "Hello"]);
    expect(history).toHaveLength(1);
    expect(provider.calls[0]?.request.messages.map(textOf)).toEqual(["earlier", "hi"]);
    expect(provider.calls[0]?.request.model).toEqual(testModel);
  });

  it("runs tool calls, appends results and continues until the model stops", async () => {
    const provider = createScriptedProvider([
      {
        content: [
          { type: "text", text: "let me" },
          { type: "toolCall", id: "c1", name: "echo", arguments: { text: "x" } },
        ],
      },
      { content: [{ type: "text", text: "done" }] },
    ]);
    const recorder = recordEvents();
    const result = await runAgentLoop({
      provider,
      model: testModel,
      messages: [],
      prompts: [user("go")],
      tools: [echo],
      systemPrompt: "Be brief.",
      onEvent: recorder.onEvent,
    });
    expect(recorder.labels().filter((entry) => !entry.startsWith("message_update"))).toEqual([
      "agent_start",
      "turn_start:0",
      "message_start:user",
      "message_end:user",
      "message_start:assistant(stop)",
      "message_end:assistant(toolUse)",
      "tool_execution_start:c1",
      "tool_execution_update:c1",
      "tool_execution_end:c1",
      "message_start:toolResult(c1)",
      "message_end:toolResult(c1)",
      "turn_end:0",
      "turn_start:1",
      "message_start:assistant(stop)",
      "message_end:assistant(stop)",
      "turn_end:1",
      "agent_end:stop",
    ]);
    const toolResult = result.messages[2] as ToolResultMessage;
    expect(toolResult).toMatchObject({
      role: "toolResult",
      toolCallId: "c1",
      toolName: "echo",
      content: [{ type: "text", text: "echo:x" }],
      details: { id: "c1" },
      isError: false,
    });
    const second = provider.calls[1]?.request;
    expect(second?.messages.map((message) => message.role)).toEqual(["user", "assistant", "toolResult"]);
    expect(second?.systemPrompt).toBe("Be brief.");
    expect(second?.tools).toEqual([
      { name: "echo", description: echo.description, parameters: echo.parameters },
    ]);
    const turnEnd = recorder.events.find((event) => event.type === "turn_end");
    expect(turnEnd?.type === "turn_end" && turnEnd.toolResults).toEqual([toolResult]);
  });

  it("passes stream options and its own signal to the provider", async () => {
    const provider = createScriptedProvider([{ content: [{ type: "text", text: "ok" }] }]);
    await runAgentLoop({
      provider,
      model: testModel,
      messages: [user("q")],
      streamOptions: { maxTokens: 99, temperature: 0.5 },
    });
    const options = provider.calls[0]?.options;
    expect(options).toMatchObject({ maxTokens: 99, temperature: 0.5, hasSignal: true });
  });

  it("ends with stop reason error when the provider reports an error, running no tools", async () => {
    let ran = false;
    const provider = createScriptedProvider([
      {
        error: "PROVIDER_SERVER_ERROR",
        message: "overloaded",
        partial: [{ type: "toolCall", id: "c1", name: "echo", arguments: { text: "x" } }],
      },
    ]);
    const recorder = recordEvents();
    const result = await runAgentLoop({
      provider,
      model: testModel,
      messages: [user("q")],
      tools: [
        {
          ...echo,
          execute: async () => {
            ran = true;
            return { content: [] };
          },
        },
      ],
      onEvent: recorder.onEvent,
    });
    expect(ran).toBe(false);
    expect(result.stopReason).toBe("error");
    expect(recorder.labels().slice(-3)).toEqual([
      "message_end:assistant(error)",
      "turn_end:0",
      "agent_end:error",
    ]);
    expect(result.messages[0]).toMatchObject({ role: "assistant", errorMessage: "overloaded" });
  });

  it("turns a provider that throws into an error response instead of throwing", async () => {
    const provider = createScriptedProvider([]);
    const result = await runAgentLoop({ provider, model: testModel, messages: [user("q")] });
    expect(result.stopReason).toBe("error");
    expect(result.messages[0]).toMatchObject({
      role: "assistant",
      stopReason: "error",
      errorMessage: 'provider "scripted" failed: scripted: stream() call 1 has no script entry left',
      provider: "scripted",
      model: "scripted-model",
    });
  });

  it("reports a stream that ends without a final event as an error", async () => {
    const provider = createScriptedProvider([]);
    provider.stream = async function* () {};
    const result = await runAgentLoop({ provider, model: testModel, messages: [user("q")] });
    expect(result.messages[0]).toMatchObject({
      stopReason: "error",
      errorMessage: 'provider "scripted" ended its stream without a done or error event',
    });
  });
});

describe("runAgentLoop: programmer errors", () => {
  it("rejects an unusable config before agent_start", async () => {
    const recorder = recordEvents();
    const provider = createScriptedProvider([]);
    const failure = await runAgentLoop({
      provider,
      model: testModel,
      messages: [],
      tools: [echo, echo],
      onEvent: recorder.onEvent,
    }).catch((error: unknown) => error);
    expect(AgentLoopError.isInstance(failure)).toBe(true);
    expect((failure as AgentLoopError).code).toBe("AGENT_LOOP_CONFIG_INVALID");
    expect((failure as Error).message).toBe('runAgentLoop: tools[1]: duplicate tool name "echo"');
    expect(recorder.events).toEqual([]);
    const badMode = await runAgentLoop({
      provider,
      model: testModel,
      messages: [],
      toolExecution: "eager" as "parallel",
    }).catch((error: unknown) => error);
    expect((badMode as Error).message).toContain('"toolExecution" must be "sequential" or "parallel"');
  });

  it("aborts the run and rejects with AGENT_LOOP_EVENT_HANDLER_FAILED when onEvent throws", async () => {
    let signal: AbortSignal | undefined;
    const provider = createScriptedProvider([
      (_request, options) => {
        signal = options.signal;
        return { content: [{ type: "text", text: "x" }], eventDelayMs: 1 };
      },
    ]);
    const failure = await runAgentLoop({
      provider,
      model: testModel,
      messages: [user("q")],
      onEvent: (event) => {
        if (event.type === "message_update") throw new Error("listener bug");
      },
    }).catch((error: unknown) => error);
    expect((failure as AgentLoopError).code).toBe("AGENT_LOOP_EVENT_HANDLER_FAILED");
    expect(((failure as Error).cause as Error).message).toBe("listener bug");
    expect(signal?.aborted).toBe(true);
  });
});
