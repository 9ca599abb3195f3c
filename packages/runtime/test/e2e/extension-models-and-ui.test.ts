/**
 * `api.models` (a summarizer on another provider or a declared model, with the application's keys)
 * and `api.ui` (mode, hasUI, notices), driven through `createAgentSession` and the wire-level server.
 */
import { defineExtension } from "@arbor/extensions";
import type { Model } from "@arbor/providers";
import { createOpenAIProvider } from "@arbor/providers/openai";
import { textReply } from "@arbor/providers/testing";
import { afterEach, describe, expect, it } from "vitest";
import { createCatalogueModelRegistry } from "../../src/extensions/catalogue-model-registry";
import type { ModelRegistry } from "../../src/extensions/model-registry";
import type { RuntimeExtensionApi } from "../../src/extensions/runtime-extension-api";
import { closeHarnesses, createHarness } from "../helpers/harness";

afterEach(closeHarnesses);

const settings = { compaction: { reserveTokens: 10_000, keepRecentTokens: 2000 } };

/** A model the application declares (an OpenAI-compatible endpoint), as a models file would. */
function declaredModel(): Model {
  return {
    id: "cheap-summarizer",
    provider: "local",
    api: "openai-chat",
    contextWindow: 32_000,
    maxTokens: 2000,
    reasoning: false,
    input: ["text"],
    cost: { input: 0.1, output: 0.2, cacheRead: 0, cacheWrite: 0 },
  };
}

/** Summarizes every compaction with `local/cheap-summarizer`, found through `api.models`. */
function cheapSummarizer(seen: { registry?: ModelRegistry; error?: unknown }) {
  return defineExtension<RuntimeExtensionApi>({
    apiVersion: 1,
    name: "cheap-summarizer",
    setup(api) {
      seen.registry = api.models;
      api.on("session_before_compact", async (event, context) => {
        const model = api.models.find("local", "cheap-summarizer");
        if (model === undefined) throw new Error("local/cheap-summarizer is not defined");
        const provider = await api.models.providerFor(model);
        const result = await api.compaction.compact(event.preparation, {
          provider,
          model,
          signal: context.signal,
        });
        return { compaction: { ...result, details: { by: `${model.provider}/${model.id}` } } };
      });
    },
  });
}

describe("api.models", () => {
  it("serves a declared model on another provider with the application's provider factory", async () => {
    const seen: { registry?: ModelRegistry } = {};
    const cheap = declaredModel();
    const created: string[] = [];
    // The provider is created when the extension asks for it, after the harness (and its server) exist.
    const h: Awaited<ReturnType<typeof createHarness>> = await createHarness({
      settings,
      extensions: [cheapSummarizer(seen)],
      models: createCatalogueModelRegistry({
        models: [cheap],
        createProvider: (model) => {
          created.push(`${model.provider}/${model.id}`);
          return createOpenAIProvider({ apiKey: "test-key", baseUrl: h.server.openaiBaseUrl });
        },
      }),
    });
    h.server.enqueue(textReply("one"), textReply("two"));
    await h.session.prompt(`first ${"a".repeat(12_000)}`);
    await h.session.prompt(`second ${"b".repeat(12_000)}`);
    h.server.enqueue(textReply("## Goal\nCHEAP SUMMARY"), textReply("## Original Request\nprefix"));
    const result = await h.session.compact();
    expect(result.summarizer).toBe("extension");
    expect(result.summary).toContain("CHEAP SUMMARY");
    expect(result.details).toEqual({ by: "local/cheap-summarizer" });
    expect(created).toEqual(["local/cheap-summarizer"]);
    const summaryRequest = h.server.requests.at(-1);
    expect(summaryRequest?.path).toContain("/chat/completions");
    expect((summaryRequest?.body as { model?: string } | undefined)?.model).toBe("cheap-summarizer");
    expect(seen.registry?.getAll()[0]).toEqual(cheap);
    expect(seen.registry?.find(undefined, "claude-sonnet-4-6")?.provider).toBe("anthropic");
  });

  it("without a registry: the catalogue, served only for the session model's provider and API", async () => {
    const seen: { registry?: ModelRegistry } = {};
    const h = await createHarness({ settings, extensions: [cheapSummarizer(seen)] });
    const registry = seen.registry as ModelRegistry;
    const sameProvider = registry.find("anthropic", "claude-haiku-4-5") as Model;
    expect(sameProvider).toBeDefined();
    expect(registry.hasConfiguredAuth(sameProvider)).toBe(true);
    const other = registry.find("openai", "gpt-4.1") as Model;
    expect(registry.hasConfiguredAuth(other)).toBe(false);
    expect(registry.getAvailable().every((model) => model.provider === "anthropic")).toBe(true);
    await expect(registry.providerFor(other)).rejects.toMatchObject({
      code: "MODEL_UNAVAILABLE",
      message: expect.stringContaining("openai/gpt-4.1"),
    });
    // The same provider serves a sibling model: the summary request names it.
    h.server.enqueue(textReply("## Goal\nHAIKU"));
    const provider = await registry.providerFor(sameProvider);
    const events = [];
    for await (const event of provider.stream({
      model: { ...sameProvider, baseUrl: h.server.anthropicBaseUrl },
      messages: [{ role: "user", content: "hi", timestamp: 0 }],
    })) {
      events.push(event.type);
    }
    expect(events.at(-1)).toBe("done");
    expect((h.server.requests.at(-1)?.body as { model?: string } | undefined)?.model).toBe(
      "claude-haiku-4-5",
    );
  });
});

describe("api.ui", () => {
  function notifier(record: { mode?: string; hasUI?: boolean }) {
    return defineExtension<RuntimeExtensionApi>({
      apiVersion: 1,
      name: "notifier",
      setup(api) {
        record.mode = api.ui.mode;
        record.hasUI = api.ui.hasUI;
        api.on("session_compact", () => api.ui.notify("compacted, as you asked", "warning"));
      },
    });
  }

  it("says the mode (library by default) and delivers notices to listeners as extension_notice", async () => {
    const record: { mode?: string; hasUI?: boolean } = {};
    const h = await createHarness({ settings, extensions: [notifier(record)] });
    expect(record).toEqual({ mode: "library", hasUI: false });
    h.server.enqueue(textReply("one"), textReply("two"), textReply("## Goal\nS"), textReply("## P\np"));
    await h.session.prompt(`first ${"a".repeat(12_000)}`);
    await h.session.prompt(`second ${"b".repeat(12_000)}`);
    await h.session.compact();
    expect(h.events.filter((event) => event.type === "extension_notice")).toEqual([
      {
        type: "extension_notice",
        extensionId: "notifier",
        message: "compacted, as you asked",
        level: "warning",
      },
    ]);
  });

  it("keeps notices sent in session_start, before anyone listened, for the first listener", async () => {
    const early = defineExtension<RuntimeExtensionApi>({
      apiVersion: 1,
      name: "early",
      setup(api) {
        api.on("session_start", () => {
          api.ui.notify("loaded 3 rules");
          api.ui.notify("rule 2 is deprecated", "warning");
        });
      },
    });
    // The harness subscribes right after createAgentSession returns, as an application does.
    const h = await createHarness({ settings, extensions: [early] });
    expect(h.events.filter((event) => event.type === "extension_notice")).toEqual([
      { type: "extension_notice", extensionId: "early", message: "loaded 3 rules", level: "info" },
      { type: "extension_notice", extensionId: "early", message: "rule 2 is deprecated", level: "warning" },
    ]);
    // Delivered once: a later listener does not get them again.
    const later: unknown[] = [];
    h.session.subscribe((event) => later.push(event));
    h.server.enqueue(textReply("one"));
    await h.session.prompt("hello");
    expect(later.some((event) => (event as { type: string }).type === "extension_notice")).toBe(false);
  });

  it("keeps at most 50 early notices; the rest become process warnings", async () => {
    const chatty = defineExtension<RuntimeExtensionApi>({
      apiVersion: 1,
      name: "chatty",
      setup(api) {
        api.on("session_start", () => {
          for (let i = 0; i < 52; i++) api.ui.notify(`notice ${i}`);
        });
      },
    });
    const warnings: string[] = [];
    const onWarning = (warning: Error) => warnings.push(warning.message);
    process.on("warning", onWarning);
    try {
      const h = await createHarness({ settings, extensions: [chatty] });
      await new Promise((resolve) => setImmediate(resolve));
      const notices = h.events.filter((event) => event.type === "extension_notice");
      expect(notices).toHaveLength(50);
      expect(notices[49]).toMatchObject({ message: "notice 49" });
      expect(warnings).toEqual(expect.arrayContaining(["notice 50", "notice 51"]));
    } finally {
      process.off("warning", onWarning);
    }
  });

  it("has UI in interactive mode only", async () => {
    const record: { mode?: string; hasUI?: boolean } = {};
    await createHarness({ settings, mode: "interactive", extensions: [notifier(record)] });
    expect(record).toEqual({ mode: "interactive", hasUI: true });
    const printRecord: { mode?: string; hasUI?: boolean } = {};
    await createHarness({ settings, mode: "print", extensions: [notifier(printRecord)] });
    expect(printRecord).toEqual({ mode: "print", hasUI: false });
  });
});
