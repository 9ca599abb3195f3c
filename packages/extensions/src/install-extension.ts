import { createExtensionApi, type ExtensionApi } from "./create-extension-api";
import type { HookBus } from "./create-hook-bus";
import type { ExtensionDefinition } from "./define-extension";
import { ExtensionError } from "./extension-error";
import type { HookMap } from "./hook-map";
import { validateExtensionDefinition } from "./internal/validate-extension-definition";

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
}

/**
 * Validates `extension`, runs its `setup` with an API bound to `bus` and the extension's name, and
 * returns a function that uninstalls it (removes every handler it registered; idempotent).
 *
 * If `setup` throws or rejects, the handlers it registered so far are removed before the error is
 * thrown, so a failed install leaves the bus as it was.
 *
 * @throws ExtensionError `EXTENSION_INVALID` / `EXTENSION_API_VERSION` for a bad definition,
 * `EXTENSION_SETUP_FAILED` when `setup` fails (the original error is the `cause`).
 */
export async function installExtension<M extends HookMap<M>, TApi = ExtensionApi<M>>(
  bus: HookBus<M>,
  extension: ExtensionDefinition<TApi>,
  options: InstallExtensionOptions<M, TApi> = {},
): Promise<() => void> {
  validateExtensionDefinition(extension, options.file);
  const scoped = createExtensionApi(bus, extension.name);
  const api = options.extendApi ? options.extendApi(scoped.api) : (scoped.api as TApi);
  try {
    await extension.setup(api);
  } catch (error) {
    scoped.dispose();
    const where = options.file === undefined ? "" : ` (${options.file})`;
    const reason = error instanceof Error ? error.message : String(error);
    throw new ExtensionError(
      "EXTENSION_SETUP_FAILED",
      `Extension "${extension.name}"${where} failed during setup: ${reason}`,
      { file: options.file, extensionName: extension.name, cause: error },
    );
  }
  return scoped.dispose;
}
