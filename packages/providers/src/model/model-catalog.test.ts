import { describe, expect, it } from "vitest";
import { ArborError } from "../errors/arbor-error";
import { getModel, listModels } from "./model-catalog";

describe("model catalog", () => {
  it("lists Anthropic and OpenAI models with sane figures", () => {
    const models = listModels();
    expect(listModels("anthropic").map((model) => model.id)).toContain("claude-sonnet-4-6");
    expect(listModels("openai").map((model) => model.id)).toEqual(
      expect.arrayContaining(["gpt-4.1", "gpt-4o", "o3", "o4-mini", "gpt-5", "gpt-5-mini"]),
    );
    for (const model of models) {
      expect(model.maxTokens).toBeLessThanOrEqual(model.contextWindow);
      expect(model.cost.output).toBeGreaterThan(model.cost.input);
      expect(model.input).toContain("text");
      expect(["anthropic-messages", "openai-responses"]).toContain(model.api);
    }
    expect(new Set(models.map((model) => `${model.provider}/${model.id}`)).size).toBe(models.length);
  });

  it("returns frozen entries", () => {
    const model = getModel("openai", "gpt-5");
    expect(Object.isFrozen(model)).toBe(true);
    expect(Object.isFrozen(model.cost)).toBe(true);
    expect({ ...model, api: "openai-chat" }.api).toBe("openai-chat");
  });

  it("throws MODEL_NOT_FOUND naming the provider, the id and the known ids", () => {
    expect(() => getModel("anthropic", "claude-2")).toThrow(ArborError);
    try {
      getModel("anthropic", "claude-2");
    } catch (error) {
      expect(ArborError.isInstance(error) && error.code).toBe("MODEL_NOT_FOUND");
      expect(String(error)).toMatch(/"claude-2".*"anthropic".*claude-haiku-4-5/);
    }
    expect(() => getModel("ollama", "x")).toThrow(/no built-in models for this provider/);
  });
});
