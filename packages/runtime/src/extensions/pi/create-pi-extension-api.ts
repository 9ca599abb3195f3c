import type { AgentMessage } from "@arbor/agent-loop";
import type { HookContext } from "@arbor/extensions";
import type { ImageContent, TextContent } from "@arbor/providers";
import type { RuntimeHooks } from "../../events/runtime-hooks";
import type { SessionCore } from "../../internal/session-core";
import type { RuntimeExtensionApi } from "../runtime-extension-api";
import { createPiContext } from "./create-pi-context";
import { unsupported, withUnsupportedMembers } from "./with-unsupported-members";

/** The members of pi's `ExtensionAPI` Arbor implements (the docs page lists what each does). */
export const SUPPORTED_PI_MEMBERS = [
  "on",
  "appendEntry",
  "sendMessage",
  "sendUserMessage",
  "setSessionName",
  "getSessionName",
  "setLabel",
  "getSettings",
  "getActiveTools",
  "getAllTools",
  "getThinkingLevel",
  "compaction",
] as const;

type PiHandler = (event: unknown, ctx: object) => unknown;
type PiContent = string | (TextContent | ImageContent)[];

/**
 * The object a pi-style extension (`export default function (pi) { … }`) receives: the supported
 * subset of pi's `ExtensionAPI` (see {@link SUPPORTED_PI_MEMBERS}), mapped onto the runtime's API.
 * `pi.on` is the strict bus registration (unknown names throw `EXTENSION_UNKNOWN_HOOK`) and hands each
 * handler `(event, ctx)` with pi's `ExtensionContext` subset. Writes are fire-and-forget as in pi
 * (they go through the session lock; a failure becomes a process warning). Any other member throws
 * `ExtensionError` `EXTENSION_UNSUPPORTED` naming it when called.
 */
export function createPiExtensionApi(api: RuntimeExtensionApi, core: SessionCore): object {
  const name = api.extensionId;
  const background = (what: string, work: Promise<unknown>) => {
    work.catch((error: unknown) =>
      process.emitWarning(
        `extension ${name}: ${what} failed: ${error instanceof Error ? error.message : String(error)}`,
      ),
    );
  };
  const customMessage = (message: {
    customType: string;
    content: PiContent;
    display: boolean;
    details?: unknown;
  }): AgentMessage => ({ role: "custom", ...message, timestamp: Date.now() }) as AgentMessage;
  const pi = {
    on(event: string, handler: PiHandler) {
      const wrapped = (payload: unknown, hook: HookContext) =>
        handler(payload, createPiContext(core, api, hook));
      return (api.on as (hook: string, h: typeof wrapped) => () => void)(
        event as keyof RuntimeHooks & string,
        wrapped,
      );
    },
    appendEntry(customType: string, data?: unknown) {
      background("appendEntry", api.session.appendCustomEntry(customType, data));
    },
    sendMessage(
      message: { customType: string; content: PiContent; display: boolean; details?: unknown },
      options: { triggerTurn?: boolean; deliverAs?: "steer" | "followUp" | "nextTurn" } = {},
    ) {
      if (options.deliverAs === "steer") core.steering.push(customMessage(message));
      else if (options.deliverAs === "followUp") core.followUps.push(customMessage(message));
      else if (options.triggerTurn === true && core.activeAbort === undefined) {
        throw unsupported(
          "pi.sendMessage with triggerTurn while idle (Arbor's runtime never starts a run itself)",
          name,
        );
      } else {
        background("sendMessage", api.session.appendCustomMessage(message));
      }
    },
    sendUserMessage(content: PiContent, options: { deliverAs?: "steer" | "followUp" } = {}) {
      const message = { role: "user", content, timestamp: Date.now() } as AgentMessage;
      if (options.deliverAs === "steer") core.steering.push(message);
      else if (options.deliverAs === "followUp" || core.activeAbort !== undefined)
        core.followUps.push(message);
      else
        throw unsupported("pi.sendUserMessage while idle (Arbor's runtime never starts a run itself)", name);
    },
    setSessionName(sessionName: string) {
      background("setSessionName", api.session.setSessionName(sessionName));
    },
    getSessionName: () => core.store.getSessionName(),
    setLabel(entryId: string, label: string | undefined) {
      background("setLabel", api.session.setLabel(entryId, label));
    },
    getSettings: () => structuredClone(core.settings),
    getActiveTools: () => (core.options.tools ?? []).map((tool) => tool.name),
    getAllTools: () =>
      (core.options.tools ?? []).map(({ name: toolName, description, parameters }) => ({
        name: toolName,
        description,
        parameters,
      })),
    getThinkingLevel: () => core.thinkingLevel ?? "off",
    /** Arbor's addition: the compaction toolkit (pi extensions import these from pi's package). */
    compaction: api.compaction,
  };
  return withUnsupportedMembers(pi, "pi", name);
}
