import { describe, expect, it } from "vitest";
import { ArborError } from "../errors/arbor-error";
import { defineModel, type ModelDefinition } from "./define-model";

describe("defineModel", () => {
  it("fills defaults for an OpenAI-compatible server", () => {
    expect(
      defineModel({
        provider: "ollama",
        id: "qwen3:8b",
        baseUrl: "http://localhost:11434/v1",
        contextWindow: 40_960,
      }),
    ).toEqual({
      id: "qwen3:8b",
      provider: "ollama",
      api: "openai-chat",
      baseUrl: "http://localhost:11434/v1",
      contextWindow: 40_960,
      maxTokens: 16_384,
      reasoning: false,
      input: ["text"],
      cost: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0 },
    });
    expect(defineModel({ provider: "p", id: "small", contextWindow: 2048 }).maxTokens).toBe(2048);
  });

  it.each<[string, Partial<ModelDefinition>, RegExp]>([
    ["empty id", { id: " " }, /"id" must be a non-empty string/],
    ["zero window", { contextWindow: 0 }, /"contextWindow" must be a positive integer, got 0/],
    ["fractional maxTokens", { maxTokens: 1.5 }, /"maxTokens" must be a positive integer/],
    [
      "maxTokens above window",
      { maxTokens: 9000 },
      /"maxTokens" \(9000\) must not exceed contextWindow \(8192\)/,
    ],
    ["negative price", { cost: { input: -1 } }, /"cost.input" must be a non-negative number/],
    ["unknown modality", { input: ["text", "audio" as "text"] }, /"input" must list/],
    ["non-http URL", { baseUrl: "localhost:11434" }, /"baseUrl" must be an http\(s\) URL/],
  ])("rejects %s with MODEL_INVALID naming the field and model", (_case, override, message) => {
    const definition = { provider: "vllm", id: "m", contextWindow: 8192, ...override } as ModelDefinition;
    let caught: unknown;
    try {
      defineModel(definition);
    } catch (error) {
      caught = error;
    }
    expect(ArborError.isInstance(caught) && caught.code).toBe("MODEL_INVALID");
    expect(String(caught)).toMatch(message);
    expect(String(caught)).toContain(`model "vllm/${definition.id}"`);
  });
});
