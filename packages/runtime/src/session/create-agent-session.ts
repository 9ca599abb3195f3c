import {
  createHookBus,
  DEFAULT_HOOK_TIMEOUT_MS,
  EXTENSION_API_VERSION,
  type ExtensionDefinition,
  installExtension,
  loadExtensionFromFile,
} from "@arbor/extensions";
import type { SessionStartReason } from "../events/lifecycle-events";
import { RUNTIME_HOOK_NAMES } from "../events/runtime-hook-names";
import type { RuntimeHooks } from "../events/runtime-hooks";
import { createPiExtensionApi } from "../extensions/pi/create-pi-extension-api";
import type { PiExtensionApi, PiExtensionFactory } from "../extensions/pi/pi-extension-api";
import { createRuntimeExtensionApi, type RuntimeExtensionApi } from "../extensions/runtime-extension-api";
import { wrapProvider } from "../extensions/wrap-provider";
import { assertLifecycleReason } from "../internal/assert-lifecycle-reason";
import { emitLifecycleEvent } from "../internal/emit-lifecycle-event";
import { createSessionCore, deliverToListeners } from "../internal/session-core";
import { createSessionLock } from "../internal/session-lock";
import { contextPolicyExtension } from "../policies/context-policy-extension";
import { RuntimeError } from "../runtime-error";
import { AgentSession } from "./agent-session";
import type { CreateAgentSessionOptions } from "./agent-session-options";

type Definition = ExtensionDefinition<RuntimeExtensionApi>;

/**
 * Creates an agent session over `options.store`: loads extension files, installs every extension (in
 * order, after the context policy `settings.contextPolicy` names; each `setup` receives a
 * {@link RuntimeExtensionApi}), and wires the loop, the store, the
 * compaction and the hook bus; then emits `session_start {reason: options.startReason ?? "startup",
 * previousSessionFile?}` to the extensions and resolves once its handlers settled. Writes nothing to
 * the store itself (a `session_start` handler may append through `api.session`).
 *
 * Extensions run with a timeout (`extensionTimeoutMs`, default 30 s) on importing each file, on each
 * `setup` and on each handler call. A handler that throws, times out or returns an invalid result
 * is reported as a `hook_error` event and skipped, so it cannot break the session. A failure while
 * no listener is subscribed yet (in `session_start`, say) becomes a process warning. Every handler
 * gets its own copy of the event's plain data (messages, entries, requests; strings shared, errors
 * and signals as they are), so a handler mutating a message cannot change the session's own; the
 * `context` hook alone shares one copy among its handlers (in-place edits are part of its contract).
 * A synchronous busy loop in an extension cannot be stopped: it blocks the one thread everything
 * runs on, timeouts included.
 *
 * @throws ExtensionError `EXTENSION_LOAD_FAILED`, `EXTENSION_INVALID`, `EXTENSION_API_VERSION`,
 * `EXTENSION_SETUP_FAILED`, `EXTENSION_TIMEOUT`, `EXTENSION_UNKNOWN_HOOK` (an `api.on` name that is
 * not in `RUNTIME_HOOK_NAMES`; names the closest one) (naming the file), after uninstalling what was installed;
 * RuntimeError `INVALID_ARGUMENT` for an unusable option.
 */
export async function createAgentSession(options: CreateAgentSessionOptions): Promise<AgentSession> {
  const definitions: Array<{ definition: Definition; file?: string }> = [];
  const timeoutMs = extensionTimeoutOf(options);
  const policy = options.settings?.contextPolicy;
  if (policy !== undefined) definitions.push({ definition: contextPolicyExtension(policy) });
  for (const extension of options.extensions ?? []) {
    if (typeof extension === "string") {
      const loaded = await loadExtensionFromFile(extension, { timeoutMs });
      definitions.push({ definition: loaded.extension as Definition, file: loaded.file });
    } else if (typeof extension === "function") {
      definitions.push({ definition: piFactoryDefinition(extension) });
    } else {
      definitions.push({ definition: extension });
    }
  }
  return createWithDefinitions(options, definitions);
}

async function createWithDefinitions(
  options: CreateAgentSessionOptions,
  definitions: Array<{ definition: Definition; file?: string }>,
): Promise<AgentSession> {
  const cap = options.compaction?.maxConsecutiveAutoCompactions;
  if (cap !== undefined && !(Number.isInteger(cap) && cap >= 1)) {
    throw new RuntimeError(
      "INVALID_ARGUMENT",
      `compaction.maxConsecutiveAutoCompactions must be an integer >= 1, got ${String(cap)}`,
    );
  }
  if (options.startReason !== undefined) assertLifecycleReason("startReason", options.startReason);
  const timeoutMs = extensionTimeoutOf(options);
  const bus = createHookBus<RuntimeHooks>({
    defaultTimeoutMs: timeoutMs,
    copyEvents: true,
    hookNames: RUNTIME_HOOK_NAMES,
  });
  const core = createSessionCore(options, bus, createSessionLock());
  core.provider = wrapProvider(options.provider, bus);
  if (core.summaryProvider !== undefined) core.summaryProvider = wrapProvider(core.summaryProvider, bus);
  bus.on("hook_error", (event) => {
    if (core.listeners.size === 0) process.emitWarning(event.error);
    else deliverToListeners(core, { type: "hook_error", ...event });
  });
  const uninstalls: Array<() => void> = [];
  const teardown = () => {
    for (const uninstall of uninstalls.splice(0).reverse()) uninstall();
  };
  try {
    for (const { definition, file } of definitions) {
      uninstalls.push(
        await installExtension(bus, definition, {
          ...(file === undefined ? {} : { file }),
          timeoutMs,
          extendApi: (api) => {
            const runtimeApi = createRuntimeExtensionApi(api, core);
            return (
              definition.style === "pi" ? createPiExtensionApi(runtimeApi, core) : runtimeApi
            ) as RuntimeExtensionApi;
          },
        }),
      );
    }
  } catch (error) {
    teardown();
    throw error;
  }
  const session = new AgentSession(core, teardown, (store) =>
    createWithDefinitions(
      {
        ...options,
        store,
        model: core.model,
        provider: core.baseProvider,
        thinkingLevel: core.thinkingLevel,
        startReason: "fork",
        previousSessionFile: core.store.path,
      },
      definitions,
    ),
  );
  const reason: SessionStartReason = options.startReason ?? "startup";
  const previousSessionFile = options.previousSessionFile;
  await emitLifecycleEvent(core, {
    type: "session_start",
    reason,
    ...(previousSessionFile === undefined ? {} : { previousSessionFile }),
  });
  return session;
}

/** An inline pi-style factory as a definition (named after the function, else `pi-extension-<n>`). */
let inlineFactories = 0;
function piFactoryDefinition(factory: PiExtensionFactory): Definition {
  inlineFactories++;
  return {
    apiVersion: EXTENSION_API_VERSION,
    name: factory.name || `pi-extension-${inlineFactories}`,
    style: "pi",
    setup: (api) => factory(api as unknown as PiExtensionApi) as void | Promise<void>,
  };
}

/**
 * The extensions' timeout: for importing each file, for each `setup`, and for each handler call.
 * @throws RuntimeError `INVALID_ARGUMENT` when it is not a positive number.
 */
function extensionTimeoutOf(options: CreateAgentSessionOptions): number {
  const timeoutMs =
    options.extensionTimeoutMs ?? options.settings?.extensionTimeoutMs ?? DEFAULT_HOOK_TIMEOUT_MS;
  if (!(timeoutMs > 0)) {
    throw new RuntimeError(
      "INVALID_ARGUMENT",
      `extensionTimeoutMs (option or setting) must be a positive number of milliseconds, got ${String(timeoutMs)}`,
    );
  }
  return timeoutMs;
}
