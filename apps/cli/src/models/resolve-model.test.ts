import { describe, expect, it } from "vitest";
import type { CustomModelDefinition } from "./load-models-file";
import { apiKeyEnvFor, requireApiKey, resolveModel } from "./resolve-model";

const local: CustomModelDefinition = {
  id: "local-8k",
  provider: "openai-compatible",
  api: "openai-chat",
  baseUrl: "http://127.0.0.1:8080/v1",
  contextWindow: 8192,
  maxTokens: 1024,
  source: "/p/.arbor/models.json",
};

describe("resolveModel", () => {
  it("defaults to Anthropic's Sonnet, and to OpenAI when only its key is set", () => {
    expect(resolveModel({ customModels: [], env: {} }).model.id).toBe("claude-sonnet-4-6");
    const openai = resolveModel({ customModels: [], env: { OPENAI_API_KEY: "k" } });
    expect([openai.model.provider, openai.apiKeyEnv, openai.apiKey]).toEqual([
      "openai",
      "OPENAI_API_KEY",
      "k",
    ]);
  });

  it("prefers flags, then settings, then the session's model", () => {
    const session = { provider: "anthropic", modelId: "claude-haiku-4-5" };
    expect(resolveModel({ customModels: [], env: {}, sessionModel: session }).model.id).toBe(
      "claude-haiku-4-5",
    );
    expect(
      resolveModel({ customModels: [], env: {}, sessionModel: session, settingsModel: "claude-opus-4-5" })
        .model.id,
    ).toBe("claude-opus-4-5");
    expect(
      resolveModel({ customModels: [], env: {}, sessionModel: session, model: "gpt-4o", settingsModel: "x" })
        .model.provider,
    ).toBe("openai");
  });

  it("finds declared models; a local server needs no key", () => {
    const resolved = resolveModel({ customModels: [local], env: {}, model: "local-8k" });
    expect(resolved.model).toMatchObject({
      id: "local-8k",
      contextWindow: 8192,
      baseUrl: "http://127.0.0.1:8080/v1",
    });
    expect(resolved.apiKeyEnv).toBe("OPENAI_COMPATIBLE_API_KEY");
    expect(requireApiKey(resolved)).toBeUndefined();
  });

  it("applies --base-url", () => {
    const resolved = resolveModel({ customModels: [], env: {}, model: "gpt-4o", baseUrl: "http://h:1/v1" });
    expect(resolved.model.baseUrl).toBe("http://h:1/v1");
  });

  it("rejects unknown models and names the missing key variable", () => {
    expect(() => resolveModel({ customModels: [local], env: {}, model: "gpt-9" })).toThrow(
      expect.objectContaining({ code: "CLI_UNKNOWN_MODEL", message: expect.stringContaining("local-8k") }),
    );
    expect(() => requireApiKey(resolveModel({ customModels: [], env: {} }))).toThrow(
      expect.objectContaining({
        code: "CLI_MISSING_API_KEY",
        message: expect.stringMatching(/^ANTHROPIC_API_KEY is not set/),
      }),
    );
    expect(apiKeyEnvFor("my.provider")).toBe("MY_PROVIDER_API_KEY");
  });

  it("takes --model provider/id (and defaultModel so written); an id containing / stays whole", () => {
    const sonnet = resolveModel({ customModels: [], env: {}, model: "anthropic/claude-sonnet-4-6" });
    expect([sonnet.model.provider, sonnet.model.id]).toEqual(["anthropic", "claude-sonnet-4-6"]);
    const declared = resolveModel({ customModels: [local], env: {}, model: "openai-compatible/local-8k" });
    expect(declared.model.id).toBe("local-8k");
    const fromSettings = resolveModel({ customModels: [], env: {}, settingsModel: "openai/gpt-4o" });
    expect([fromSettings.model.provider, fromSettings.model.id]).toEqual(["openai", "gpt-4o"]);
    const slashed = { ...local, id: "meta/llama-3", provider: "router" };
    expect(resolveModel({ customModels: [slashed], env: {}, model: "meta/llama-3" }).model.id).toBe(
      "meta/llama-3",
    );
    expect(() => resolveModel({ customModels: [], env: {}, model: "openai/claude-sonnet-4-6" })).toThrow(
      expect.objectContaining({
        code: "CLI_UNKNOWN_MODEL",
        message: expect.stringContaining('for provider "openai"'),
      }),
    );
    expect(() =>
      resolveModel({ customModels: [], env: {}, model: "openai/gpt-4o", provider: "anthropic" }),
    ).toThrow(expect.objectContaining({ code: "CLI_USAGE" }));
  });

  it("lists every known model in the unknown-model message, as provider/id", () => {
    try {
      resolveModel({ customModels: [local], env: {}, model: "gpt-9" });
      throw new Error("accepted");
    } catch (error) {
      const message = (error as Error).message;
      for (const id of [
        "openai-compatible/local-8k",
        "anthropic/claude-haiku-4-5",
        "openai/gpt-5.2",
        "openai/o4-mini",
      ]) {
        expect(message).toContain(id);
      }
      expect(message).toContain("arbor models");
    }
  });
});
