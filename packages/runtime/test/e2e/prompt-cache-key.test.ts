/**
 * The session's id as OpenAI's `prompt_cache_key`: every request a session makes to its provider
 * (agent turns and summaries) carries the store's `sessionId`, through the official SDKs to the
 * wire-level server.
 */
import type { Provider, StreamOptions } from "@arbor/providers";
import { textReply, toolCallReply } from "@arbor/providers/testing";
import { afterEach, describe, expect, it } from "vitest";
import {
  bigReadTool,
  closeHarnesses,
  createHarness,
  type Harness,
  type HarnessOptions,
  scriptReplies,
} from "../helpers/harness";

afterEach(closeHarnesses);

type Body = Record<string, unknown>;
const bodyOf = (request: { body: unknown } | undefined): Body => (request?.body ?? {}) as Body;

/** Scripts eight reads of 8000 characters, then an answer, and summaries for whatever asks for them. */
function scriptReads(server: Harness["server"]): void {
  const agent = [];
  for (let index = 1; index <= 8; index++) {
    agent.push(
      toolCallReply(
        "read",
        { path: `src/file-${index}.ts` },
        { id: `call_${index}`, usage: { input: 1000 + index * 2000, output: 20 } },
      ),
    );
  }
  agent.push(textReply("done", { usage: { input: 10_000, output: 5 } }));
  const summaries = Array.from({ length: 8 }, () => textReply("## Goal\nmodel summary"));
  scriptReplies(server, agent, summaries);
}

/** A session over the OpenAI SDK that reads eight files: enough for the cache-aware policy to summarize. */
async function runReads(options: HarnessOptions): Promise<Harness> {
  const h = await createHarness({
    api: "openai",
    contextWindow: 40_000,
    tools: [bigReadTool(8000)],
    ...options,
  });
  scriptReads(h.server);
  await h.session.prompt("read the eight files");
  return h;
}

const cacheAware = {
  name: "cache-aware",
  triggerFraction: 0.1,
  summaryFraction: 0.3,
  keepRecentTokens: 3000,
  minToolResultTokens: 100_000,
} as const;

describe("prompt_cache_key (OpenAI SDK)", () => {
  it("every agent request carries the store's session id", async () => {
    const h = await createHarness({ api: "openai", tools: [bigReadTool(10)] });
    scriptReplies(h.server, [toolCallReply("read", { path: "a.txt" }), textReply("one"), textReply("two")]);
    await h.session.prompt("first");
    await h.session.prompt("second");
    expect(h.server.requests).toHaveLength(3);
    for (const request of h.server.requests) expect(bodyOf(request).prompt_cache_key).toBe(h.store.sessionId);
  });

  it("a forked session sends its own id; the original keeps its own", async () => {
    const h = await createHarness({ api: "openai" });
    scriptReplies(h.server, [textReply("one"), textReply("two"), textReply("forked"), textReply("again")]);
    await h.session.prompt("first");
    await h.session.prompt("second");
    const { session, store } = await h.session.fork({ entryId: h.fileEntries()[2]?.id as string });
    try {
      await session.prompt("in the fork");
      await h.session.prompt("back in the original");
    } finally {
      await session.dispose();
      store.close();
    }
    expect(store.sessionId).not.toBe(h.store.sessionId);
    expect(h.server.requests.map((request) => bodyOf(request).prompt_cache_key)).toEqual([
      h.store.sessionId,
      h.store.sessionId,
      store.sessionId,
      h.store.sessionId,
    ]);
  });

  it("a cache-sharing compaction summary carries the session id (same cache as the conversation)", async () => {
    const h = await runReads({
      settings: { contextPolicy: cacheAware, compaction: { reserveTokens: 10_000 } },
    });
    const summaries = h.summaryRequests();
    expect(summaries.length).toBeGreaterThanOrEqual(1);
    for (const request of summaries) {
      expect(JSON.stringify(bodyOf(request).messages)).toContain("src/file-1.ts");
      expect(bodyOf(request).prompt_cache_key).toBe(h.store.sessionId);
    }
    expect(h.fileEntries().some((entry) => entry.type === "compaction")).toBe(true);
  });

  it("summary requests to the session's provider get the session id as their stream option", async () => {
    // A fresh summary is sent with cacheRetention "none", so the adapter puts no key on the wire; the
    // option is what the provider receives (a random id per request before).
    const seen: Array<StreamOptions | undefined> = [];
    const recording = (provider: Provider): Provider => ({
      specificationVersion: "v1",
      name: "recording",
      stream(request, options) {
        seen.push(options);
        return provider.stream(request, options);
      },
    });
    const h = await runReads({
      wrapProvider: recording,
      settings: {
        contextPolicy: { ...cacheAware, shareSummaryCache: false },
        compaction: { reserveTokens: 10_000 },
      },
    });
    const summaryOptions = seen.filter((options) => options?.cacheRetention === "none");
    expect(summaryOptions.length).toBeGreaterThanOrEqual(1);
    for (const options of summaryOptions) expect(options?.sessionId).toBe(h.store.sessionId);
    expect(h.summaryRequests().every((request) => bodyOf(request).prompt_cache_key === undefined)).toBe(true);
  });

  it("a branch summary (navigate with summarize) gets the session id as its stream option", async () => {
    const seen: Array<StreamOptions | undefined> = [];
    const h = await createHarness({
      api: "openai",
      wrapProvider: (provider) => ({
        specificationVersion: "v1",
        name: "recording",
        stream(request, options) {
          seen.push(options);
          return provider.stream(request, options);
        },
      }),
    });
    scriptReplies(h.server, [textReply("first answer"), textReply("second answer")], [textReply("BRANCH")]);
    await h.session.prompt("first question");
    await h.session.prompt("second question");
    const target = h.fileEntries()[2]?.id as string;
    await h.session.navigate(target, { summarize: true });
    expect(h.summaryRequests()).toHaveLength(1);
    expect(seen).toHaveLength(3);
    expect(seen.map((options) => options?.sessionId)).toEqual([
      h.store.sessionId,
      h.store.sessionId,
      h.store.sessionId,
    ]);
  });

  it("a summary provider other than the session's gets no session id", async () => {
    const other = await createHarness({ api: "openai" });
    const h = await runReads({
      compaction: { provider: other.provider },
      settings: { contextPolicy: cacheAware, compaction: { reserveTokens: 10_000 } },
    });
    const summaries = other.server.requests;
    expect(summaries.length).toBeGreaterThanOrEqual(1);
    for (const request of summaries) expect(bodyOf(request).prompt_cache_key).toBeUndefined();
    expect(h.agentRequests().every((request) => bodyOf(request).prompt_cache_key === h.store.sessionId)).toBe(
      true,
    );
  });

  it('opting out: streamOptions.cacheRetention "none" sends no key', async () => {
    const none = await createHarness({ api: "openai", streamOptions: { cacheRetention: "none" } });
    scriptReplies(none.server, [textReply("one")]);
    await none.session.prompt("first");
    expect(bodyOf(none.server.requests[0])).not.toHaveProperty("prompt_cache_key");
  });

  it("an explicit streamOptions.sessionId is sent instead of the store's", async () => {
    const h = await createHarness({ api: "openai", streamOptions: { sessionId: "my-routing-key" } });
    scriptReplies(h.server, [textReply("one")]);
    await h.session.prompt("first");
    expect(bodyOf(h.server.requests[0]).prompt_cache_key).toBe("my-routing-key");
  });
});

/** Top-level fields of an Anthropic Messages request that Arbor's adapter may send. */
const ANTHROPIC_FIELDS = [
  "model",
  "messages",
  "system",
  "max_tokens",
  "stream",
  "tools",
  "thinking",
  "temperature",
];

describe("Anthropic SDK", () => {
  it("agent and summary requests send no prompt_cache_key nor the session id", async () => {
    const h = await createHarness({
      api: "anthropic",
      contextWindow: 40_000,
      tools: [bigReadTool(8000)],
      settings: { contextPolicy: cacheAware, compaction: { reserveTokens: 10_000 } },
    });
    const agent = [];
    for (let index = 1; index <= 8; index++)
      agent.push(
        toolCallReply("read", { path: `f${index}` }, { usage: { input: 1000 + index * 2000, output: 20 } }),
      );
    agent.push(textReply("done"));
    scriptReplies(
      h.server,
      agent,
      Array.from({ length: 8 }, () => textReply("## Goal\nmodel summary")),
    );
    await h.session.prompt("read the eight files");
    expect(h.summaryRequests().length).toBeGreaterThanOrEqual(1);
    for (const request of h.server.requests) {
      // Only Messages API fields (Anthropic rejects unknown ones).
      expect(ANTHROPIC_FIELDS).toEqual(expect.arrayContaining(Object.keys(bodyOf(request))));
      expect(bodyOf(request)).not.toHaveProperty("prompt_cache_key");
      expect(JSON.stringify(request.body)).not.toContain(h.store.sessionId);
    }
  });
});
