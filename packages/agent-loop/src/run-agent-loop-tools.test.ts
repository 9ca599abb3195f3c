import type { ToolCall, ToolResultMessage } from "@arbor/providers";
import { createScriptedProvider } from "@arbor/providers/testing";
import { describe, expect, it } from "vitest";
import { recordEvents, textOf, user } from "../test/support/record-events";
import { testModel } from "../test/support/test-model";
import type { AgentTool, AgentToolResult } from "./agent-tool";
import { truncatedToolCallText } from "./internal/tool-result-texts";
import { runAgentLoop } from "./run-agent-loop";

function call(id: string, name: string, args: Record<string, unknown> = {}): ToolCall {
  return { type: "toolCall", id, name, arguments: args };
}

function deferred() {
  let resolve: (result: AgentToolResult) => void = () => {};
  const promise = new Promise<AgentToolResult>((settle) => {
    resolve = settle;
  });
  return { promise, resolve };
}

function tool(name: string, execute: AgentTool["execute"], extra: Partial<AgentTool> = {}): AgentTool {
  return { name, description: name, parameters: { type: "object" }, execute, ...extra };
}

const ok = (text: string): AgentToolResult => ({ content: [{ type: "text", text }] });

async function runCalls(blocks: ToolCall[], tools: AgentTool[], toolExecution?: "sequential" | "parallel") {
  const provider = createScriptedProvider([
    { content: blocks },
    { content: [{ type: "text", text: "end" }] },
  ]);
  const recorder = recordEvents();
  const result = await runAgentLoop({
    provider,
    model: testModel,
    messages: [user("q")],
    tools,
    ...(toolExecution ? { toolExecution } : {}),
    onEvent: recorder.onEvent,
  });
  const results = result.messages.filter(
    (message): message is ToolResultMessage => message.role === "toolResult",
  );
  const toolLabels = recorder.labels().filter((label) => /tool_execution|toolResult/.test(label));
  return { result, results, toolLabels, provider };
}

describe("runAgentLoop: tool execution", () => {
  it("runs parallel calls together: starts in order, ends by completion, results in order", async () => {
    const log: string[] = [];
    const slow = deferred();
    const tools = [
      tool("slow", async () => {
        log.push("slow started");
        return slow.promise;
      }),
      tool("fast", async () => {
        log.push("fast started");
        setTimeout(() => slow.resolve(ok("slow done")), 1);
        return ok("fast done");
      }),
    ];
    const { results, toolLabels } = await runCalls([call("a", "slow"), call("b", "fast")], tools);
    expect(log).toEqual(["slow started", "fast started"]);
    expect(toolLabels).toEqual([
      "tool_execution_start:a",
      "tool_execution_start:b",
      "tool_execution_end:b",
      "tool_execution_end:a",
      "message_start:toolResult(a)",
      "message_end:toolResult(a)",
      "message_start:toolResult(b)",
      "message_end:toolResult(b)",
    ]);
    expect(results.map(textOf)).toEqual(["slow done", "fast done"]);
  });

  it("runs a sequential tool alone, between its neighbours", async () => {
    const log: string[] = [];
    const make = (name: string, mode?: "sequential") =>
      tool(
        name,
        async () => {
          log.push(`${name}:start`);
          await new Promise((resolve) => setTimeout(resolve, 2));
          log.push(`${name}:end`);
          return ok(name);
        },
        mode ? { executionMode: mode } : {},
      );
    const tools = [make("p1"), make("p2"), make("seq", "sequential"), make("p3")];
    const { toolLabels } = await runCalls(
      [call("1", "p1"), call("2", "p2"), call("3", "seq"), call("4", "p3")],
      tools,
    );
    expect(log).toEqual([
      "p1:start",
      "p2:start",
      "p1:end",
      "p2:end",
      "seq:start",
      "seq:end",
      "p3:start",
      "p3:end",
    ]);
    expect(toolLabels.slice(8, 12)).toEqual([
      "tool_execution_start:3",
      "tool_execution_end:3",
      "message_start:toolResult(3)",
      "message_end:toolResult(3)",
    ]);
  });

  it("runs every call one by one when toolExecution is sequential", async () => {
    const log: string[] = [];
    const make = (name: string) =>
      tool(name, async () => {
        log.push(`${name}:start`);
        await new Promise((resolve) => setTimeout(resolve, 2));
        log.push(`${name}:end`);
        return ok(name);
      });
    await runCalls([call("1", "a"), call("2", "b")], [make("a"), make("b")], "sequential");
    expect(log).toEqual(["a:start", "a:end", "b:start", "b:end"]);
  });

  it("answers unknown tools, invalid arguments, throws and isError with error results", async () => {
    const typed = tool("typed", async () => ok("never"), {
      parameters: {
        type: "object",
        properties: { path: { type: "string" }, mode: { enum: ["r", "w"] } },
        required: ["path"],
      },
    });
    const throwing = tool("throwing", async () => {
      throw new Error("disk full");
    });
    const soft = tool("soft", async () => ({ content: [{ type: "text", text: "nope" }], isError: true }));
    const { results } = await runCalls(
      [
        call("1", "missing"),
        call("2", "typed", { mode: "x" }),
        call("3", "throwing"),
        call("4", "soft"),
        call("5", "typed", { path: "a.ts" }),
      ],
      [typed, throwing, soft],
    );
    expect(results.map((result) => [result.isError, textOf(result)])).toEqual([
      [true, 'There is no tool named "missing". Available tools: "typed", "throwing", "soft".'],
      [
        true,
        'Invalid arguments for tool "typed": missing required "path"; "mode" must be one of "r", "w", got "x".',
      ],
      [true, "disk full"],
      [true, "nope"],
      [false, "never"],
    ]);
  });

  it("does not run the tool calls of a length-stopped response and lets the model retry", async () => {
    let ran = false;
    const provider = createScriptedProvider([
      { content: [call("c1", "write", { path: "a" })], stopReason: "length" },
      { content: [{ type: "text", text: "retrying later" }] },
    ]);
    const recorder = recordEvents();
    const result = await runAgentLoop({
      provider,
      model: testModel,
      messages: [user("q")],
      tools: [
        tool("write", async () => {
          ran = true;
          return ok("written");
        }),
      ],
      onEvent: recorder.onEvent,
    });
    expect(ran).toBe(false);
    const toolResult = result.messages.find((message) => message.role === "toolResult");
    expect(toolResult).toMatchObject({ isError: true, toolCallId: "c1" });
    expect(textOf(toolResult)).toBe(truncatedToolCallText("write"));
    expect(provider.calls).toHaveLength(2);
    expect(result.stopReason).toBe("stop");
    expect(recorder.labels()).toContain("tool_execution_end:c1:error");
  });

  it("emits updates before the end and ignores updates after the tool settled", async () => {
    let late: ((update: { details: string }) => void) | undefined;
    const chatty = tool("chatty", async (_args, context) => {
      context.onUpdate({ details: "one" });
      context.onUpdate({ details: "two" });
      late = context.onUpdate;
      return ok("done");
    });
    const provider = createScriptedProvider([
      { content: [call("c", "chatty")] },
      { content: [{ type: "text", text: "e" }] },
    ]);
    const recorder = recordEvents();
    await runAgentLoop({
      provider,
      model: testModel,
      messages: [user("q")],
      tools: [chatty],
      onEvent: (event) => {
        if (event.type === "tool_execution_end") late?.({ details: "late" });
        recorder.onEvent(event);
      },
    });
    const updates = recorder.events.flatMap((event) =>
      event.type === "tool_execution_update" ? [event.partialResult.details] : [],
    );
    expect(updates).toEqual(["one", "two"]);
    expect(recorder.labels().filter((label) => label.includes(":c"))).toEqual([
      "tool_execution_start:c",
      "tool_execution_update:c",
      "tool_execution_update:c",
      "tool_execution_end:c",
    ]);
  });
});
