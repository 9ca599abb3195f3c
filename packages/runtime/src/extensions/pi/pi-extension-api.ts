import type { HandlerReturn, HookEvent, HookResult } from "@arbor/extensions";
import type { ImageContent, Model, TextContent } from "@arbor/providers";
import type { SessionEntry, SessionHeader, SessionProjection } from "@arbor/session-store";
import type { RuntimeHooks } from "../../events/runtime-hooks";
import type { ContextUsage } from "../../session/context-usage";
import type { Settings } from "../../settings/settings";
import type { NoticeLevel } from "../extension-ui";
import type { ModelRegistry } from "../model-registry";
import type { ExtensionCompactionTools } from "../runtime-extension-api";

/** pi's `ReadonlySessionManager`, the subset Arbor implements (other members throw `EXTENSION_UNSUPPORTED`). */
export interface PiSessionManager {
  getCwd(): string;
  getSessionDir(): string | undefined;
  getSessionId(): string;
  getSessionFile(): string | undefined;
  getHeader(): SessionHeader;
  getLeafId(): string | null;
  getLeafEntry(): SessionEntry | undefined;
  getEntry(id: string): SessionEntry | undefined;
  getEntries(): SessionEntry[];
  getBranch(fromId?: string): SessionEntry[];
  getLabel(id: string): string | undefined;
  getSessionName(): string | undefined;
  buildSessionProjection(): SessionProjection;
  buildContextEntries(): SessionProjection["entries"];
}

/** pi's `ExtensionContext` (a handler's second argument), the subset Arbor implements. */
export interface PiExtensionContext {
  cwd: string;
  /** pi's run mode: `tui` in Arbor's interactive mode, `json` with `--json`, else `print`. */
  mode: "tui" | "json" | "print";
  /** True in the interactive mode only. */
  hasUI: boolean;
  /** `notify` only (`api.ui.notify`); dialogs throw `EXTENSION_UNSUPPORTED`. */
  ui: { notify(message: string, level?: NoticeLevel): void };
  /** pi's `ctx.modelRegistry`: `api.models` (with Arbor's `providerFor(model)`, a provider carrying the user's key). */
  modelRegistry: ModelRegistry;
  model: Model;
  thinkingLevel: string | undefined;
  signal: AbortSignal;
  sessionManager: PiSessionManager;
  isIdle(): boolean;
  isProjectTrusted(): boolean;
  hasPendingMessages(): boolean;
  abort(): void;
  getContextUsage(): ContextUsage | undefined;
}

type PiContent = string | (TextContent | ImageContent)[];

/**
 * The subset of pi's `ExtensionAPI` a pi-style extension receives (`export default function (pi) {…}`);
 * every other member throws `ExtensionError` `EXTENSION_UNSUPPORTED` naming it when called.
 */
export interface PiExtensionApi {
  on<K extends keyof RuntimeHooks & string>(
    event: K,
    handler: (
      event: HookEvent<RuntimeHooks, K>,
      ctx: PiExtensionContext,
    ) => HandlerReturn<HookResult<RuntimeHooks, K>>,
  ): () => void;
  appendEntry(customType: string, data?: unknown): void;
  sendMessage(
    message: { customType: string; content: PiContent; display: boolean; details?: unknown },
    options?: { triggerTurn?: boolean; deliverAs?: "steer" | "followUp" | "nextTurn" },
  ): void;
  sendUserMessage(content: PiContent, options?: { deliverAs?: "steer" | "followUp" }): void;
  setSessionName(name: string): void;
  getSessionName(): string | undefined;
  setLabel(entryId: string, label: string | undefined): void;
  getSettings(): Settings;
  getActiveTools(): string[];
  getAllTools(): Array<{ name: string; description: string; parameters: unknown }>;
  getThinkingLevel(): string;
  /** Arbor's addition: the compaction toolkit of `RuntimeExtensionApi`. */
  compaction: ExtensionCompactionTools;
}

/** A pi-style extension: a function that receives {@link PiExtensionApi}. */
export type PiExtensionFactory = (pi: PiExtensionApi) => void | Promise<void>;
