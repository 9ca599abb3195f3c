import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import type { AgentTool } from "@arbor/agent-loop";
import { CACHE_SHARING_SUMMARY_PROMPT } from "@arbor/compaction";
import type { Model, Provider } from "@arbor/providers";
import { createAnthropicProvider } from "@arbor/providers/anthropic";
import { createOpenAIProvider } from "@arbor/providers/openai";
import {
  createTestLlmServer,
  type RecordedRequest,
  type TestLlmServer,
  type WireReply,
} from "@arbor/providers/testing";
import { createSessionStore, type SessionEntry, type SessionStore } from "@arbor/session-store";
import type { AgentSessionEvent } from "../../src/events/session-events";
import type { AgentSession } from "../../src/session/agent-session";
import type { CreateAgentSessionOptions } from "../../src/session/agent-session-options";
import { createAgentSession } from "../../src/session/create-agent-session";

/** Which SDK the session talks through. */
export type WireApi = "anthropic" | "openai";

/** Options of {@link createHarness}. */
export interface HarnessOptions
  extends Partial<Omit<CreateAgentSessionOptions, "store" | "model" | "provider">> {
  api?: WireApi;
  contextWindow?: number;
  maxTokens?: number;
  modelId?: string;
  /** Wraps the SDK provider before the session gets it (for example to record stream options). */
  wrapProvider?: (provider: Provider) => Provider;
}

/** A session wired to a local wire-level server through a real SDK, with a JSONL file in a temp dir. */
export interface Harness {
  server: TestLlmServer;
  provider: Provider;
  model: Model;
  store: SessionStore;
  session: AgentSession;
  events: AgentSessionEvent[];
  dir: string;
  file: string;
  /** The session file's entries as written (header excluded). */
  fileEntries(): SessionEntry[];
  /** Requests the summarizer made (system prompt of a summary request). */
  summaryRequests(): RecordedRequest[];
  /** Requests of the agent loop (everything but summaries). */
  agentRequests(): RecordedRequest[];
  eventTypes(filter?: (type: string) => boolean): string[];
  close(): Promise<void>;
}

const harnesses: Harness[] = [];

/** Closes every harness created so far (call from `afterEach`). */
export async function closeHarnesses(): Promise<void> {
  for (const harness of harnesses.splice(0)) await harness.close();
}

/** The opening of the instruction that ends a cache-sharing summary request. */
const SHARED_SUMMARY_MARK = CACHE_SHARING_SUMMARY_PROMPT.slice(0, 60);

/**
 * True when a recorded request is a summary request (compaction, turn prefix or branch summary): a
 * summarizer's system prompt, or (cache-sharing) the conversation ending with the summary instruction.
 */
export function isSummaryRequest(request: RecordedRequest): boolean {
  if (/checkpoint/i.test(systemText(request.body))) return true;
  const messages = (request.body as { messages?: unknown[] }).messages;
  return JSON.stringify(messages?.at(-1) ?? "").includes(SHARED_SUMMARY_MARK);
}

/** The system prompt of a request body (Anthropic `system`, OpenAI system/developer message). */
export function systemText(body: unknown): string {
  const record = body as { system?: unknown; messages?: Array<{ role: string; content: unknown }> };
  if (typeof record.system === "string") return record.system;
  if (Array.isArray(record.system))
    return record.system.map((block) => (block as { text?: string }).text ?? "").join("\n");
  const first = record.messages?.find((message) => message.role === "system" || message.role === "developer");
  return typeof first?.content === "string" ? first.content : JSON.stringify(first?.content ?? "");
}

/** Everything a request sends as conversation, as one string (for `includes` checks). */
export function conversationText(request: RecordedRequest | undefined): string {
  if (request === undefined) throw new Error("no such request was recorded");
  return JSON.stringify((request.body as { messages?: unknown }).messages ?? request.body);
}

/**
 * Serves agent requests from `agent` and summary requests from `summaries`, in order, whatever their
 * interleaving. Enqueues one routing reply per expected request; a function entry is called with
 * the request as the server would call it.
 */
export function scriptReplies(server: TestLlmServer, agent: WireReply[], summaries: WireReply[] = []): void {
  const total = agent.length + summaries.length;
  const router: WireReply = (request) => {
    const queue = isSummaryRequest({ body: request.body } as RecordedRequest) ? summaries : agent;
    const next = queue.shift();
    if (next === undefined)
      throw new Error(`test script exhausted for ${queue === summaries ? "summary" : "agent"} requests`);
    return typeof next === "function" ? next(request) : next;
  };
  for (let index = 0; index < total; index++) server.enqueue(router);
}

/** Creates a harness; closed by {@link closeHarnesses}. */
export async function createHarness(options: HarnessOptions = {}): Promise<Harness> {
  const {
    api = "anthropic",
    contextWindow = 40_000,
    maxTokens = 1000,
    modelId,
    wrapProvider,
    ...sessionOptions
  } = options;
  const server = createTestLlmServer();
  await server.start();
  const provider =
    api === "anthropic"
      ? createAnthropicProvider({
          apiKey: "test-key",
          baseUrl: server.anthropicBaseUrl,
          retry: { maxRetries: 0 },
        })
      : createOpenAIProvider({ apiKey: "test-key", baseUrl: server.openaiBaseUrl, retry: { maxRetries: 0 } });
  const model: Model = {
    id: modelId ?? (api === "anthropic" ? "claude-test" : "gpt-test"),
    provider: api,
    api: api === "anthropic" ? "anthropic-messages" : "openai-chat",
    contextWindow,
    maxTokens,
    reasoning: false,
    input: ["text"],
    cost: { input: 3, output: 15, cacheRead: 0.3, cacheWrite: 3.75 },
  };
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "arbor-runtime-"));
  const store = createSessionStore({ dir, cwd: dir });
  let session: AgentSession;
  try {
    session = await createAgentSession({
      store,
      model,
      provider: wrapProvider === undefined ? provider : wrapProvider(provider),
      ...sessionOptions,
    });
  } catch (error) {
    store.close();
    await server.close();
    fs.rmSync(dir, { recursive: true, force: true });
    throw error;
  }
  const events: AgentSessionEvent[] = [];
  session.subscribe((event) => events.push(event));
  const file = store.path as string;
  const harness: Harness = {
    server,
    provider,
    model,
    store,
    session,
    events,
    dir,
    file,
    fileEntries: () => readFileEntries(file),
    summaryRequests: () => server.requests.filter(isSummaryRequest),
    agentRequests: () => server.requests.filter((request) => !isSummaryRequest(request)),
    eventTypes: (filter) =>
      events.map((event) => event.type).filter((type) => (filter ? filter(type) : true)),
    async close() {
      await session.dispose();
      store.close();
      await server.close();
      fs.rmSync(dir, { recursive: true, force: true });
    },
  };
  harnesses.push(harness);
  return harness;
}

/** Parses a JSONL session file (header excluded). */
export function readFileEntries(file: string): SessionEntry[] {
  if (!fs.existsSync(file)) return [];
  return fs
    .readFileSync(file, "utf8")
    .split("\n")
    .filter((line) => line.trim() !== "")
    .map((line) => JSON.parse(line) as SessionEntry | { type: "session" })
    .filter((entry): entry is SessionEntry => entry.type !== "session");
}

/** A `read` tool that returns `size` characters of text for any path. */
export function bigReadTool(size: number, calls: string[] = []): AgentTool {
  return {
    name: "read",
    description: "Read a file",
    parameters: { type: "object", properties: { path: { type: "string" } }, required: ["path"] },
    async execute(args) {
      calls.push(String(args.path));
      return { content: [{ type: "text", text: `contents of ${String(args.path)}: ${"x".repeat(size)}` }] };
    },
  };
}
