/**
 * The seeds' two custom-compaction recipes, as the example files in `examples/extensions/`, loaded
 * from their files (type imports only) and driven through `createAgentSession` and the wire server.
 */
import { defineExtension } from "@arbor/extensions";
import type { Model } from "@arbor/providers";
import { createOpenAIProvider } from "@arbor/providers/openai";
import { textReply, toolCallReply } from "@arbor/providers/testing";
import { afterEach, describe, expect, it } from "vitest";
import { createCatalogueModelRegistry } from "../../src/extensions/catalogue-model-registry";
import type { RuntimeExtensionApi } from "../../src/extensions/runtime-extension-api";
import { bigReadTool, closeHarnesses, createHarness, systemText } from "../helpers/harness";
import { examplePath } from "./example-paths";

afterEach(closeHarnesses);

const compaction = { reserveTokens: 10_000, keepRecentTokens: 2000 };

const ownModel: Model = {
  id: "own-summarizer",
  provider: "local",
  api: "openai-chat",
  contextWindow: 32_000,
  maxTokens: 2000,
  reasoning: false,
  input: ["text"],
  cost: { input: 0.1, output: 0.2, cacheRead: 0, cacheWrite: 0 },
};

describe("examples/extensions/summarize-with-your-own-model.ts", { timeout: 30_000 }, () => {
  async function session() {
    const h = await createHarness({
      settings: { compaction, ownModelCompaction: { model: "local/own-summarizer" } },
      extensions: [examplePath("summarize-with-your-own-model.ts")],
      models: createCatalogueModelRegistry({
        models: [ownModel],
        createProvider: () => createOpenAIProvider({ apiKey: "test-key", baseUrl: h.server.openaiBaseUrl }),
      }),
    });
    h.server.enqueue(textReply("one"), textReply("two"));
    await h.session.prompt(`first ${"a".repeat(12_000)}`);
    await h.session.prompt(`second ${"b".repeat(12_000)}`);
    return h;
  }

  it("summarizes with the configured model on another provider and tells the user", async () => {
    const h = await session();
    h.server.enqueue(textReply("## Goal\nOWN SUMMARY"), textReply("## Original Request\nprefix"));
    const result = await h.session.compact();
    expect(result.summarizer).toBe("extension");
    expect(result.summary).toContain("OWN SUMMARY");
    expect(result.details).toMatchObject({ summarizedBy: "local/own-summarizer" });
    const summaryRequests = h.server.requests.slice(2);
    expect(summaryRequests.length).toBeGreaterThan(0);
    for (const request of summaryRequests) {
      expect(request.path).toContain("/chat/completions");
      expect((request.body as { model?: string }).model).toBe("own-summarizer");
    }
    expect(h.events.filter((event) => event.type === "extension_notice")).toEqual([
      {
        type: "extension_notice",
        extensionId: "summarize-with-your-own-model",
        message: "summarized with local/own-summarizer",
        level: "info",
      },
    ]);
    expect(h.fileEntries().at(-1)).toMatchObject({ type: "compaction", fromHook: true });
  });

  it("cancels when the instructions say skip: nothing is written, no model is called", async () => {
    const h = await session();
    const before = h.fileEntries().length;
    await expect(h.session.compact("skip this one")).rejects.toMatchObject({ code: "COMPACTION_CANCELLED" });
    expect(h.fileEntries()).toHaveLength(before);
    expect(h.server.requests).toHaveLength(2);
    expect(h.events.some((event) => event.type === "extension_notice")).toBe(true);
  });
});

describe("examples/extensions/serialize-it-yourself.ts (pi-style)", { timeout: 30_000 }, () => {
  it("sends the serialized conversation with its own prompt and stores the answer with the file lists", async () => {
    const h = await createHarness({
      settings: { compaction },
      extensions: [examplePath("serialize-it-yourself.ts")],
      tools: [bigReadTool(200)],
    });
    h.server.enqueue(toolCallReply("read", { path: "src/app.ts" }), textReply("read it"), textReply("two"));
    await h.session.prompt(`first, keep TODO_PAGE_SIZE=25 ${"a".repeat(12_000)}`);
    await h.session.prompt(`second ${"b".repeat(12_000)}`);
    h.server.enqueue(textReply("HANDOVER: paginate, page size 25."));
    const result = await h.session.compact();
    const request = h.server.requests.at(-1);
    expect(systemText(request?.body)).toContain("handover note");
    const sent = JSON.stringify((request?.body as { messages?: unknown } | undefined)?.messages);
    expect(sent).toContain("[User]: first, keep TODO_PAGE_SIZE=25");
    expect(sent).toContain('[Assistant tool calls]: read(path=\\"src/app.ts\\")');
    expect(result.summarizer).toBe("extension");
    expect(result.summary).toBe(
      "HANDOVER: paginate, page size 25.\n\n<read-files>\nsrc/app.ts\n</read-files>",
    );
    expect(result.details).toMatchObject({ readFiles: ["src/app.ts"], modifiedFiles: [] });
  });

  it("in a one-prompt run the cut splits the turn: the prefix is serialized too", async () => {
    const seen: Array<{ split: boolean; toSummarize: number; prefix: number }> = [];
    const observer = defineExtension<RuntimeExtensionApi>({
      apiVersion: 1,
      name: "observer",
      setup(api) {
        api.on("session_before_compact", ({ preparation }) => {
          seen.push({
            split: preparation.isSplitTurn,
            toSummarize: preparation.messagesToSummarize.length,
            prefix: preparation.turnPrefixMessages.length,
          });
          return undefined;
        });
      },
    });
    const h = await createHarness({
      settings: { compaction },
      extensions: [observer, examplePath("serialize-it-yourself.ts")],
      tools: [bigReadTool(12_000)],
    });
    h.server.enqueue(
      toolCallReply("read", { path: "one.txt" }),
      toolCallReply("read", { path: "two.txt" }),
      textReply("done reading"),
    );
    await h.session.prompt("read one.txt then two.txt, do not touch three.txt");
    const events: string[] = [];
    h.session.subscribe((event) => {
      if (event.type === "compaction_start") events.push(event.type);
    });
    h.server.enqueue(textReply("HANDOVER of a split turn"));
    const result = await h.session.compact();
    const sent = JSON.stringify(
      (h.server.requests.at(-1)?.body as { messages?: unknown } | undefined)?.messages,
    );
    expect(sent).toContain("[User]: read one.txt then two.txt, do not touch three.txt");
    expect(result.summary.startsWith("HANDOVER of a split turn")).toBe(true);
    expect(events).toEqual(["compaction_start"]);
    expect(seen).toEqual([{ split: true, toSummarize: 0, prefix: expect.any(Number) }]);
    expect(seen[0]?.prefix).toBeGreaterThan(0);
  });
});
