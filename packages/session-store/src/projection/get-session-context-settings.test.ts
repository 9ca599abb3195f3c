import { describe, expect, it } from "vitest";
import { EntryChain } from "../__fixtures__/entry-builders";
import { getSessionContextSettings } from "./get-session-context-settings";

describe("getSessionContextSettings", () => {
  it("defaults to thinking off and no model", () => {
    expect(getSessionContextSettings([])).toEqual({ thinkingLevel: "off", model: null });
  });

  it("takes the latest thinking level and the latest model change or assistant message", () => {
    const chain = new EntryChain();
    chain.add("t1", { type: "thinking_level_change", thinkingLevel: "high" });
    chain.assistant("a1", "reply", undefined, "model-a");
    chain.add("t2", { type: "thinking_level_change", thinkingLevel: "low" });
    chain.add("m1", { type: "model_change", provider: "openai", modelId: "gpt-x" });
    expect(getSessionContextSettings(chain.entries)).toEqual({
      thinkingLevel: "low",
      model: { provider: "openai", modelId: "gpt-x" },
    });
    chain.assistant("a2", "reply", undefined, "model-b");
    expect(getSessionContextSettings(chain.entries).model).toEqual({
      provider: "anthropic",
      modelId: "model-b",
    });
  });

  it("ignores user messages, non-message entries with an assistant-like field, and broken message entries", () => {
    const chain = new EntryChain();
    chain.add("m1", { type: "model_change", provider: "openai", modelId: "gpt-x" });
    chain.user("u1");
    chain.add("x1", { type: "future_type", message: { role: "assistant", provider: "p", model: "m" } });
    chain.add("b1", { type: "message", message: null });
    chain.add("b2", { type: "message" });
    expect(getSessionContextSettings(chain.entries)).toEqual({
      thinkingLevel: "off",
      model: { provider: "openai", modelId: "gpt-x" },
    });
  });
});
