import type { ExtensionApi } from "./create-extension-api";
import type { EXTENSION_API_VERSION } from "./extension-api-version";
import { validateExtensionDefinition } from "./internal/validate-extension-definition";

/**
 * An extension: a named `setup` function that receives an API object (usually an
 * {@link ExtensionApi}, possibly extended by the host application) and registers handlers on it.
 */
export interface ExtensionDefinition<TApi = ExtensionApi<Record<never, never>>> {
  /** Contract version the extension was written against; must be {@link EXTENSION_API_VERSION}. */
  apiVersion: typeof EXTENSION_API_VERSION;
  /** Non-empty name; used as the extension id in `hook_error` events. */
  name: string;
  /**
   * Registers the extension's handlers.
   *
   * Contract: called once per install. May be async; the host awaits it. A throw or rejection aborts
   * the install with an `EXTENSION_SETUP_FAILED` error. It should register handlers only through
   * `api`, so that uninstalling removes them.
   */
  setup(api: TApi): void | Promise<void>;
  /**
   * How `setup` expects its API: `"arbor"` (default) gets the host's API; `"pi"` marks a pi-style
   * factory (`export default function (pi) { pi.on(…) }`) wrapped by `loadExtensionFromFile`, for
   * which a host that supports it passes a pi-shaped API instead.
   */
  style?: "arbor" | "pi";
}

/**
 * Declares an extension. Checks the definition at runtime and returns it unchanged, typed.
 *
 * ```ts
 * export default defineExtension<ExtensionApi<MyHooks>>({
 *   apiVersion: 1,
 *   name: "audit-log",
 *   setup(api) {
 *     api.on("turn_end", (event) => console.log("turn", event.turnIndex));
 *   },
 * });
 * ```
 *
 * @throws ExtensionError `EXTENSION_API_VERSION` for an unsupported `apiVersion`, `EXTENSION_INVALID`
 * when `name` is not a non-empty string or `setup` not a function.
 */
export function defineExtension<TApi = ExtensionApi<Record<never, never>>>(
  definition: ExtensionDefinition<TApi>,
): ExtensionDefinition<TApi> {
  return validateExtensionDefinition(definition) as ExtensionDefinition<TApi>;
}
