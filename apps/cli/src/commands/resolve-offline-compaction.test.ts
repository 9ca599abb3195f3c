import { describe, expect, it } from "vitest";
import type { CustomModelDefinition } from "../models/load-models-file";
import { resolveOfflineCompaction } from "./resolve-offline-compaction";

const local: CustomModelDefinition = {
  id: "local-8k",
  provider: "local",
  api: "openai-chat",
  contextWindow: 8192,
  maxTokens: 1024,
  source: "/home/.arbor/models.json",
};
const localRef = { provider: "local", modelId: "local-8k" };

describe("resolveOfflineCompaction", () => {
  it("fits the defaults to a small model from the user's models file, as the agent would", () => {
    expect(
      resolveOfflineCompaction(undefined, {
        settings: {},
        fromFiles: false,
        model: localRef,
        customModels: [local],
      }),
    ).toEqual({
      keepRecentTokens: 2048,
      keepRecentTokensSource: "scaled to fit the 8,192-token window",
      reserveTokens: 2048,
      contextWindow: 8192,
      scaledFrom: { reserveTokens: 16384, keepRecentTokens: 20000, contextWindow: 8192 },
    });
  });

  it("keeps settings that fit, and --keep-recent-tokens wins as given", () => {
    const settings = { compaction: { keepRecentTokens: 4000 } };
    const claude = { provider: "anthropic", modelId: "claude-sonnet-4-6" };
    expect(
      resolveOfflineCompaction(undefined, { settings, fromFiles: true, model: claude, customModels: [] }),
    ).toMatchObject({
      keepRecentTokens: 4000,
      keepRecentTokensSource: "from the settings",
      scaledFrom: null,
    });
    expect(
      resolveOfflineCompaction(100_000, {
        settings,
        fromFiles: true,
        model: localRef,
        customModels: [local],
      }),
    ).toMatchObject({
      keepRecentTokens: 100_000,
      keepRecentTokensSource: "from --keep-recent-tokens",
      reserveTokens: 2048,
    });
  });

  it("applies the configured values as they are when the model's window is unknown", () => {
    expect(
      resolveOfflineCompaction(undefined, {
        settings: {},
        fromFiles: false,
        model: localRef,
        customModels: [],
      }),
    ).toEqual({
      keepRecentTokens: 20000,
      keepRecentTokensSource: "the default",
      reserveTokens: 16384,
      contextWindow: null,
      scaledFrom: null,
    });
  });
});
