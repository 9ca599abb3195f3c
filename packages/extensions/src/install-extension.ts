import { createExtensionApi, type ExtensionApi } from "./create-extension-api";
import { DEFAULT_HOOK_TIMEOUT_MS, type HookBus } from "./create-hook-bus";
import type { ExtensionDefinition } from "./define-extension";
import { ExtensionError } from "./extension-error";
import type { HookMap } from "./hook-map";
import { validateExtensionDefinition } from "./internal/validate-extension-definition";
import { assertTimeoutMs, withinTimeout } from "./internal/within-timeout";

/** Options of {@link installExtension}. */
export interface InstallExtensionOptions<M extends HookMap<M>, TApi> {
  /** The file the extension came from, named in errors. */
  file?: string;
  /**
   * Builds the object handed to `setup` from the bus-bound base API, for hosts that offer more than
   * `on` (the base `on` keeps handler ownership, so uninstall still removes them). Defaults to the
   * base API itself.
   */
  extendApi?: (api: ExtensionApi<M>) => TApi;
  /**
   * How long `setup` may take, in ms. Default 30 s (`DEFAULT_HOOK_TIMEOUT_MS`); `Infinity` waits
   * forever. Must be positive.
   */
  timeoutMs?: number;
}

/**
 * Validates `extension`, runs its `setup` with an API bound to `bus` and the extension's name, and
 * returns a function that uninstalls it (removes every handler it registered; idempotent).
 *
 * If `setup` throws, rejects or does not settle within `timeoutMs`, the handlers it registered so far
 * are removed before the error is thrown, and anything it registers later is ignored, so a failed
 * install leaves the bus as it was. A `setup` that blocks the thread (a synchronous busy loop)
 * cannot be stopped: nothing else runs until it returns.
 *
 * @throws ExtensionError `EXTENSION_INVALID` / `EXTENSION_API_VERSION` for a bad definition,
 * `EXTENSION_SETUP_FAILED` when `setup` fails (the original error is the `cause`),
 * `EXTENSION_TIMEOUT` when it does not settle in time, `EXTENSION_UNSUPPORTED` when `setup` calls an API
 * member the host does not implement, `EXTENSION_UNKNOWN_HOOK` when `setup` registers a
 * name the bus does not know (see `CreateHookBusOptions.hookNames`; the message names the closest one). RangeError for a `timeoutMs` that is not
 * positive.
 */
export async function installExtension<M extends HookMap<M>, TApi = ExtensionApi<M>>(
  bus: HookBus<M>,
  extension: ExtensionDefinition<TApi>,
  options: InstallExtensionOptions<M, TApi> = {},
): Promise<() => void> {
  validateExtensionDefinition(extension, options.file);
  const timeoutMs = options.timeoutMs ?? DEFAULT_HOOK_TIMEOUT_MS;
  assertTimeoutMs(timeoutMs, "timeoutMs of installExtension");
  const scoped = createExtensionApi(bus, extension.name);
  const api = options.extendApi ? options.extendApi(scoped.api) : (scoped.api as TApi);
  const where = options.file === undefined ? "" : ` (${options.file})`;
  try {
    await withinTimeout(
      (async () => extension.setup(api))(),
      timeoutMs,
      () =>
        new ExtensionError(
          "EXTENSION_TIMEOUT",
          `Extension "${extension.name}"${where} did not finish setup within ${timeoutMs} ms`,
          { file: options.file, extensionName: extension.name, timeoutMs },
        ),
    );
  } catch (error) {
    scoped.dispose();
    if (ExtensionError.isInstance(error) && error.code === "EXTENSION_TIMEOUT") throw error;
    if (
      ExtensionError.isInstance(error) &&
      (error.code === "EXTENSION_UNKNOWN_HOOK" || error.code === "EXTENSION_UNSUPPORTED")
    ) {
      throw new ExtensionError(error.code, `${error.message}${where}`, {
        file: options.file,
        extensionName: extension.name,
        hookName: error.hookName,
        closestHookName: error.closestHookName,
        member: error.member,
        cause: error,
      });
    }
    const reason = error instanceof Error ? error.message : String(error);
    throw new ExtensionError(
      "EXTENSION_SETUP_FAILED",
      `Extension "${extension.name}"${where} failed during setup: ${reason}`,
      { file: options.file, extensionName: extension.name, cause: error },
    );
  }
  return scoped.dispose;
}
