import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import type { AgentMessage } from "@arbor/agent-loop";
import type { Compactor } from "@arbor/compaction";
import { createHookBus } from "@arbor/extensions";
import { type AssistantMessage, complete, type Model, type UserMessage } from "@arbor/providers";
import { createAnthropicProvider } from "@arbor/providers/anthropic";
import { createTestLlmServer, type TestLlmServer, type WireReply } from "@arbor/providers/testing";
import { createSessionStore, type SessionEntry, type SessionStore } from "@arbor/session-store";
import type { RuntimeHooks } from "../../src/events/runtime-hooks";
import type { AgentSessionEvent } from "../../src/events/session-events";
import { persistMessage } from "../../src/internal/persist-message";
import { createRunState, type RunState } from "../../src/internal/run-state";
import { createSessionCore, type SessionCore } from "../../src/internal/session-core";
import { createSessionLock } from "../../src/internal/session-lock";
import type { SessionCompactionOptions } from "../../src/session/agent-session-options";
import type { Settings } from "../../src/settings/settings";

/**
 * A session core (the state `createAgentSession` builds) over a real JSONL store in a temp dir, for
 * unit tests of the runtime's compaction decisions (`checkResponse`, `runAutoCompaction`). Responses
 * are real: `respond` sends a request through the Anthropic SDK to the local wire-level server.
 * Summaries are offline unless `llmSummaries` is set (then the server answers them too).
 *
 * Defaults: context window 40000, maxTokens 1000, reserveTokens 10000 (threshold 30000),
 * keepRecentTokens 4000.
 */
export interface CoreHarness {
  core: SessionCore;
  store: SessionStore;
  server: TestLlmServer;
  model: Model;
  /** Every event delivered to session listeners, in order. */
  events: AgentSessionEvent[];
  /** A fresh prompt state (the loop guard cap defaults to 3). */
  newRun(options?: { maxConsecutiveAutoCompactions?: number; signal?: AbortSignal }): RunState;
  /** One real response: the server's `reply` through the SDK (not persisted). */
  respond(reply: WireReply, model?: Model): Promise<AssistantMessage>;
  /** Persists a message as the loop does (its entry id is recorded). */
  persist<T extends AgentMessage>(message: T): T;
  /** Persists a user message of `text` (`chars / 4` tokens with the default counter). */
  say(text: string): UserMessage;
  /** Entry types of the branch, with message roles (`user`, `assistant`, `context_edit`, ...). */
  branchShape(): string[];
  /** Entries of the branch after `entry` (by id). */
  entriesAfter(entryId: string): SessionEntry[];
  /** The id the message was persisted under. */
  idOf(message: AgentMessage): string;
  eventTypes(): string[];
  close(): Promise<void>;
}

/** A compactor whose summaries always fail with `message`; counts its calls. */
export function failingCompactor(message: string): Compactor & { calls: number } {
  const compactor = {
    name: "failing",
    calls: 0,
    async compact(): Promise<never> {
      compactor.calls++;
      throw new Error(message);
    },
    async summarizeBranch(): Promise<never> {
      compactor.calls++;
      throw new Error(message);
    },
  };
  return compactor;
}

/** Options of {@link createCoreHarness}. */
export interface CoreHarnessOptions {
  settings?: Settings;
  contextWindow?: number;
  maxTokens?: number;
  compaction?: SessionCompactionOptions;
  llmSummaries?: boolean;
}

const harnesses: CoreHarness[] = [];

/** Closes every core harness created so far (call from `afterEach`). */
export async function closeCoreHarnesses(): Promise<void> {
  for (const harness of harnesses.splice(0)) await harness.close();
}

/** Creates a core harness; closed by {@link closeCoreHarnesses}. */
export async function createCoreHarness(options: CoreHarnessOptions = {}): Promise<CoreHarness> {
  const server = createTestLlmServer();
  await server.start();
  const provider = createAnthropicProvider({
    apiKey: "test-key",
    baseUrl: server.anthropicBaseUrl,
    retry: { maxRetries: 0 },
  });
  const model: Model = {
    id: "claude-test",
    provider: "anthropic",
    api: "anthropic-messages",
    contextWindow: options.contextWindow ?? 40_000,
    maxTokens: options.maxTokens ?? 1000,
    reasoning: false,
    input: ["text"],
    cost: { input: 3, output: 15, cacheRead: 0.3, cacheWrite: 3.75 },
  };
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "arbor-core-"));
  const store = createSessionStore({ dir, cwd: dir });
  const compaction: SessionCompactionOptions = {
    ...(options.llmSummaries ? {} : { provider: null }),
    ...options.compaction,
  };
  const settings = options.settings ?? { compaction: { reserveTokens: 10_000, keepRecentTokens: 4000 } };
  const core = createSessionCore(
    { store, model, provider, settings, compaction },
    createHookBus<RuntimeHooks>({ defaultTimeoutMs: 5000 }),
    createSessionLock(),
  );
  const events: AgentSessionEvent[] = [];
  core.listeners.add((event) => events.push(event));
  const harness: CoreHarness = {
    core,
    store,
    server,
    model,
    events,
    newRun: (run = {}) =>
      createRunState(run.signal ?? new AbortController().signal, run.maxConsecutiveAutoCompactions),
    async respond(reply, requestModel = model) {
      server.enqueue(reply);
      return complete(provider, {
        model: requestModel,
        messages: [{ role: "user", content: "go on", timestamp: Date.now() }],
      });
    },
    persist(message) {
      persistMessage(core, message);
      return message;
    },
    say(text) {
      return harness.persist<UserMessage>({ role: "user", content: text, timestamp: Date.now() });
    },
    branchShape: () =>
      store.getBranch().map((entry) => (entry.type === "message" ? entry.message.role : entry.type)),
    entriesAfter(entryId) {
      const branch = store.getBranch();
      return branch.slice(branch.findIndex((entry) => entry.id === entryId) + 1);
    },
    idOf(message) {
      const id = core.entryIds.get(message);
      if (id === undefined) throw new Error("the message was not persisted");
      return id;
    },
    eventTypes: () => events.map((event) => event.type),
    async close() {
      store.close();
      await server.close();
      fs.rmSync(dir, { recursive: true, force: true });
    },
  };
  harnesses.push(harness);
  return harness;
}
