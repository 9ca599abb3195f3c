import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { AgentTool } from "@arbor/agent-loop";
import type { Model, Provider } from "@arbor/providers";
import { createAnthropicProvider } from "@arbor/providers/anthropic";
import { createOpenAIProvider } from "@arbor/providers/openai";
import { createTestLlmServer, type TestLlmServer, type WireReply } from "@arbor/providers/testing";
import { type AgentSession, type AgentSessionEvent, createAgentSession, type Settings } from "@arbor/runtime";
import { createSessionStore, type SessionStore } from "@arbor/session-store";

/** Which official SDK the session talks through. */
export type WireApi = "anthropic" | "openai";

/** An agent session on a JSONL file, talking to the local wire server through a real SDK. */
export interface RuntimeHarness {
  api: WireApi;
  server: TestLlmServer;
  model: Model;
  provider: Provider;
  store: SessionStore;
  session: AgentSession;
  events: AgentSessionEvent[];
  /** The session file. */
  file: string;
  /** Paths the `read` tool was called with. */
  toolCalls: string[];
  close(): Promise<void>;
}

/** A `read` tool that answers after `delayMs` (abortable), so an abort can land during a tool run. */
export function readTool(calls: string[], delayMs = 0): AgentTool {
  return {
    name: "read",
    description: "Read a file",
    parameters: { type: "object", properties: { path: { type: "string" } }, required: ["path"] },
    async execute(args, { signal }) {
      calls.push(String(args.path));
      if (delayMs > 0) {
        await new Promise<void>((resolve, reject) => {
          const timer = setTimeout(resolve, delayMs);
          signal?.addEventListener("abort", () => {
            clearTimeout(timer);
            reject(new Error("aborted"));
          });
        });
      }
      return { content: [{ type: "text", text: `contents of ${String(args.path)}` }] };
    },
  };
}

/**
 * Starts the wire server, a provider through the official SDK of `api` (short retry delays so that
 * retried faults stay fast; `retry-after` is honoured up to 2 s), a JSONL session in a temp folder
 * and an agent session with the slow-able `read` tool. `close()` disposes of everything.
 */
export async function createRuntimeHarness(
  api: WireApi,
  options: { toolDelayMs?: number; contextWindow?: number; settings?: Settings } = {},
): Promise<RuntimeHarness> {
  const server = createTestLlmServer();
  await server.start();
  const retry = { maxRetries: 2, baseDelayMs: 5, maxDelayMs: 2000, jitter: 0 };
  const provider =
    api === "anthropic"
      ? createAnthropicProvider({ apiKey: "test-key", baseUrl: server.anthropicBaseUrl, retry })
      : createOpenAIProvider({ apiKey: "test-key", baseUrl: server.openaiBaseUrl, retry });
  const model: Model = {
    id: api === "anthropic" ? "claude-test" : "gpt-test",
    provider: api,
    api: api === "anthropic" ? "anthropic-messages" : "openai-chat",
    contextWindow: options.contextWindow ?? 40_000,
    maxTokens: 1000,
    reasoning: false,
    input: ["text"],
    cost: { input: 3, output: 15, cacheRead: 0.3, cacheWrite: 3.75 },
  };
  const dir = mkdtempSync(join(tmpdir(), "arbor-provider-faults-"));
  const store = createSessionStore({ dir, cwd: dir });
  const toolCalls: string[] = [];
  const session = await createAgentSession({
    store,
    model,
    provider,
    tools: [readTool(toolCalls, options.toolDelayMs)],
    systemPrompt: "You are a test agent.",
    ...(options.settings ? { settings: options.settings } : {}),
  });
  const events: AgentSessionEvent[] = [];
  session.subscribe((event) => events.push(event));
  return {
    api,
    server,
    model,
    provider,
    store,
    session,
    events,
    file: store.path as string,
    toolCalls,
    async close() {
      await session.dispose();
      store.close();
      await server.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** Enqueues replies on the shared script (every request consumes the next one). */
export function script(server: TestLlmServer, ...replies: WireReply[]): void {
  server.enqueue(...replies);
}
