import { createScriptedProvider } from "@arbor/providers/testing";
import { describe, expect, it } from "vitest";
import { recordEvents, user } from "../test/support/record-events";
import { testModel } from "../test/support/test-model";
import { runAgentLoop } from "./run-agent-loop";

const text = (value: string) => ({ content: [{ type: "text" as const, text: value }] });

describe("runAgentLoop: requestContinuation", () => {
  it("makes one more request with the prepared context when it returns true once", async () => {
    const provider = createScriptedProvider([text("first"), text("second")]);
    const answers = [true, false];
    const asked: number[] = [];
    const recorder = recordEvents();
    const result = await runAgentLoop({
      provider,
      model: testModel,
      messages: [user("q")],
      requestContinuation: () => {
        asked.push(asked.length);
        return answers.shift() ?? false;
      },
      prepareNextTurn: ({ messages }) => ({ messages: [...messages, user("nudge")] }),
      onEvent: recorder.onEvent,
    });
    expect(asked).toEqual([0, 1]);
    expect(provider.calls).toHaveLength(2);
    expect(provider.calls[1]?.request.messages.at(-1)).toMatchObject({ role: "user" });
    expect(result.messages.map((message) => message.role)).toEqual(["assistant", "assistant"]);
    expect(recorder.labels().filter((label) => label.startsWith("turn_"))).toEqual([
      "turn_start:0",
      "turn_end:0",
      "turn_start:1",
      "turn_end:1",
    ]);
  });

  it("is not asked while tool calls or follow-ups continue the run, nor after an error turn", async () => {
    const provider = createScriptedProvider([{ error: "PROVIDER_RATE_LIMITED" }]);
    let asked = 0;
    const result = await runAgentLoop({
      provider,
      model: testModel,
      messages: [user("q")],
      requestContinuation: () => {
        asked++;
        return true;
      },
    });
    expect(asked).toBe(0);
    expect(result.stopReason).toBe("error");
  });

  it("ends the run with an error turn when it throws", async () => {
    const provider = createScriptedProvider([text("first")]);
    const result = await runAgentLoop({
      provider,
      model: testModel,
      messages: [user("q")],
      requestContinuation: () => {
        throw new Error("nope");
      },
    });
    expect(result.stopReason).toBe("error");
    expect(provider.calls).toHaveLength(1);
    const last = result.messages.at(-1);
    expect(last?.role === "assistant" && last.errorMessage).toBe("requestContinuation failed: nope");
  });
});
