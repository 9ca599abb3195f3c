// Type-checked by the consumer check in a fresh npm project, under moduleResolution node16 and
// bundler with skipLibCheck false: every entry point resolves with its types, and the types a user
// reaches for are there.
import { type AgentLoopConfig, AgentLoopError, type AgentMessage, runAgentLoop } from "@arbor/agent-loop";
import { CompactionError, type CompactionResult, prepareCompaction } from "@arbor/compaction";
import { createTiktokenCounter } from "@arbor/compaction/tiktoken";
import { createHookBus, defineExtension, ExtensionError, HookError } from "@arbor/extensions";
import {
  ArborError,
  getModel,
  MissingPeerDependencyError,
  type Provider,
  ProviderError,
} from "@arbor/providers";
import { createAnthropicProvider } from "@arbor/providers/anthropic";
import { createOpenAIProvider } from "@arbor/providers/openai";
import { createScriptedProvider, startWireServer } from "@arbor/providers/testing";
import {
  type AgentSession,
  createAgentSession,
  RuntimeError,
  type RuntimeExtensionApi,
  type SessionCompactionResult,
  SettingsError,
} from "@arbor/runtime";
import {
  createInMemorySessionStore,
  type SessionStore,
  SessionStoreError,
  VERSION,
} from "@arbor/session-store";

export const errors: Array<{ isInstance(value: unknown): boolean }> = [
  AgentLoopError,
  CompactionError,
  ExtensionError,
  HookError,
  ArborError,
  MissingPeerDependencyError,
  ProviderError,
  RuntimeError,
  SettingsError,
  SessionStoreError,
];

export async function surface(): Promise<void> {
  const store: SessionStore = createInMemorySessionStore();
  const provider: Provider = createScriptedProvider([{ content: [{ type: "text", text: "hi" }] }]);
  const model = getModel("anthropic", "claude-sonnet-4-6");
  const session: AgentSession = await createAgentSession({ store, model, provider });
  const compacted: SessionCompactionResult = await session.compact();
  const result: CompactionResult | undefined = undefined;
  const messages: AgentMessage[] = [];
  const config: AgentLoopConfig = { provider, model, messages };
  await runAgentLoop(config);
  prepareCompaction(store.getBranch(), { enabled: true, reserveTokens: 1, keepRecentTokens: 1 });
  createTiktokenCounter({ encoding: "o200k_base" });
  createAnthropicProvider({ apiKey: "k" });
  createOpenAIProvider({ apiKey: "k" });
  const server = await startWireServer();
  await server.close();
  createHookBus();
  defineExtension<RuntimeExtensionApi>({ apiVersion: 1, name: "x", setup() {} });
  // @ts-expect-error AgentSession is made by createAgentSession only.
  new AgentSession();
  console.log(VERSION, compacted.summary, result);
}
