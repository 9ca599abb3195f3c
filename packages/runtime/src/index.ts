export type {
  SessionLifecycleHooks,
  SessionShutdownEvent,
  SessionShutdownReason,
  SessionStartEvent,
  SessionStartReason,
} from "./events/lifecycle-events";
export { RUNTIME_HOOK_NAMES } from "./events/runtime-hook-names";
export type {
  BeforeProviderRequestEvent,
  BeforeProviderRequestResult,
  ContextEvent,
  ContextResult,
  CustomCompaction,
  RuntimeHooks,
  RuntimeInterceptors,
  SessionBeforeCompactEvent,
  SessionBeforeCompactResult,
  SessionBeforeForkEvent,
  SessionBeforeForkResult,
  SessionBeforeTreeEvent,
  SessionBeforeTreeResult,
  SessionNotificationHooks,
  ToolCallEvent,
  ToolCallResult,
  ToolResultEvent,
  ToolResultResult,
  TreePreparation,
} from "./events/runtime-hooks";
export type {
  AgentSessionEvent,
  AgentSessionEventType,
  CompactionEndEvent,
  CompactionFallbackEvent,
  CompactionReason,
  CompactionStartEvent,
  CompactionSummarizer,
  ExtensionNoticeEvent,
  HookErrorNotice,
  ModelSelectEvent,
  SessionCompactEvent,
  SessionCompactFailedEvent,
  SessionCompactionResult,
  SessionErrorEvent,
  SessionInfoChangedEvent,
  SessionNotification,
  SessionTreeEvent,
} from "./events/session-events";
export type { CatalogueModelRegistryOptions } from "./extensions/catalogue-model-registry";
export { createCatalogueModelRegistry } from "./extensions/catalogue-model-registry";
export type { ExtensionUi, NoticeLevel, SessionMode } from "./extensions/extension-ui";
export type { ModelRegistry } from "./extensions/model-registry";
export { SUPPORTED_PI_MEMBERS } from "./extensions/pi/create-pi-extension-api";
export type {
  PiExtensionApi,
  PiExtensionContext,
  PiExtensionFactory,
  PiSessionManager,
} from "./extensions/pi/pi-extension-api";
export type {
  ExtensionCompactionTools,
  ExtensionSessionHandle,
  ReadonlySessionView,
  RuntimeExtensionApi,
} from "./extensions/runtime-extension-api";
export { DEFAULT_MAX_CONSECUTIVE_AUTO_COMPACTIONS } from "./internal/run-state";
export type { NavigateOptions, NavigateResult } from "./navigation/navigate-tree";
export { contextPolicyExtension } from "./policies/context-policy-extension";
export type {
  ContextPolicyName,
  ContextPolicySettings,
  ResolvedContextPolicySettings,
} from "./policies/context-policy-settings";
export { CONTEXT_POLICY_NAMES, resolveContextPolicySettings } from "./policies/context-policy-settings";
export type { MaskEdit, PlanMaskOptions } from "./policies/plan-mask-edits";
export { maskPlaceholder, planMaskEdits } from "./policies/plan-mask-edits";
export type { RuntimeErrorCode, RuntimeErrorDetails } from "./runtime-error";
export { RuntimeError } from "./runtime-error";
export type { AgentSession, PromptInput } from "./session/agent-session";
export type { CreateAgentSessionOptions, SessionCompactionOptions } from "./session/agent-session-options";
export type { ContextUsage } from "./session/context-usage";
export { createAgentSession } from "./session/create-agent-session";
export type { ForkOptions, ForkResult } from "./session/fork-session";
export type { PromptResult } from "./session/run-prompt";
export type { SessionStats, TokenTotals } from "./session/session-stats";
export type { EffectiveCompactionSettings } from "./settings/fit-compaction-settings";
export { fitCompactionSettings } from "./settings/fit-compaction-settings";
export type { LoadedSettings, LoadSettingsOptions, UnknownSettingsKey } from "./settings/load-settings";
export { loadSettings, readSettingsFile, resolveArborHome } from "./settings/load-settings";
export { mergeSettings } from "./settings/merge-settings";
export type { CompactionModelOverride, Settings } from "./settings/settings";
export type { SettingsErrorCode } from "./settings/settings-error";
export { SettingsError } from "./settings/settings-error";
