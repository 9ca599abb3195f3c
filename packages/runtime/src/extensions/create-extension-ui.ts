import { holdOrDeliverNotice, type SessionCore } from "../internal/session-core";
import type { ExtensionUi, NoticeLevel } from "./extension-ui";

/**
 * `api.ui` of one extension (and pi's `ctx.ui.notify`): the session's mode, and notices delivered to
 * the session's listeners as `extension_notice` events naming the extension. A notice sent while no
 * listener is subscribed (during `session_start`, before `createAgentSession` has returned) is kept
 * and delivered to the first listener that subscribes.
 */
export function createExtensionUi(core: SessionCore, extensionId: string | undefined): ExtensionUi {
  const mode = core.options.mode ?? "library";
  return Object.freeze({
    mode,
    hasUI: mode === "interactive",
    notify(message: string, level: NoticeLevel = "info") {
      const text = typeof message === "string" ? message : String(message);
      const safeLevel: NoticeLevel = level === "warning" || level === "error" ? level : "info";
      holdOrDeliverNotice(core, { type: "extension_notice", extensionId, message: text, level: safeLevel });
    },
  });
}
