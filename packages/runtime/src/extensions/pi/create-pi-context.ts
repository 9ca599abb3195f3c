import path from "node:path";
import type { HookContext } from "@arbor/extensions";
import type { SessionCore } from "../../internal/session-core";
import { getContextUsage } from "../../session/context-usage";
import type { SessionMode } from "../extension-ui";
import type { RuntimeExtensionApi } from "../runtime-extension-api";
import { withUnsupportedMembers } from "./with-unsupported-members";

/**
 * pi's `ReadonlySessionManager` over the session's store (the reading methods pi extensions use).
 * Members pi has and Arbor does not throw `EXTENSION_UNSUPPORTED` naming them when called.
 */
export function createPiSessionManager(core: SessionCore, extensionName: string): object {
  const store = core.store;
  return withUnsupportedMembers(
    {
      getCwd: () => store.header.cwd,
      getSessionDir: () => (store.path === undefined ? undefined : path.dirname(store.path)),
      getSessionId: () => store.sessionId,
      getSessionFile: () => store.path,
      getHeader: () => store.header,
      getLeafId: () => store.leafId,
      getLeafEntry: () => store.getLeafEntry(),
      getEntry: (id: string) => store.getEntry(id),
      getEntries: () => store.getEntries(),
      getBranch: (fromId?: string) => store.getBranch(fromId),
      getTree: () => store.getTree(),
      getLabel: (id: string) => store.getLabel(id),
      getSessionName: () => store.getSessionName(),
      buildSessionProjection: () => store.getProjection(),
      buildContextEntries: () => store.getProjection().entries,
    },
    "ctx.sessionManager",
    extensionName,
  );
}

/** pi's mode for Arbor's: `interactive` is pi's `tui`, `json` stays, everything else is `print`. */
function piModeOf(mode: SessionMode): "tui" | "json" | "print" {
  if (mode === "interactive") return "tui";
  return mode === "json" ? "json" : "print";
}

/**
 * pi's `ExtensionContext` for one handler call (the second argument of a pi handler): `cwd`, `mode`
 * (pi's names: `tui` in Arbor's interactive mode, `json`, else `print`) and `hasUI` (from `api.ui`),
 * `ui.notify` (`api.ui.notify`; dialogs are unsupported), `modelRegistry` (`api.models`), `model`, `thinkingLevel`,
 * `signal` (the handler's: aborted on its timeout or the operation's abort), `sessionManager`,
 * `isIdle()`, `hasPendingMessages()`, `abort()`, `getContextUsage()`. Other members (`ui.select`,
 * `compact`, `shutdown`, …) throw `EXTENSION_UNSUPPORTED` naming them when called.
 */
export function createPiContext(core: SessionCore, api: RuntimeExtensionApi, hook: HookContext): object {
  const extensionName = api.extensionId;
  return withUnsupportedMembers(
    {
      cwd: core.store.header.cwd,
      mode: piModeOf(api.ui.mode),
      hasUI: api.ui.hasUI,
      ui: withUnsupportedMembers({ notify: api.ui.notify }, "ctx.ui", extensionName),
      modelRegistry: api.models,
      model: core.model,
      thinkingLevel: core.thinkingLevel,
      scopedModels: [],
      signal: hook.signal,
      sessionManager: createPiSessionManager(core, extensionName),
      isIdle: () => core.activeAbort === undefined,
      isProjectTrusted: () => false,
      hasPendingMessages: () => core.steering.length + core.followUps.length > 0,
      abort: () => core.activeAbort?.abort(new Error(`aborted by extension ${extensionName}`)),
      getContextUsage: () => getContextUsage(core),
    },
    "ctx",
    extensionName,
  );
}
