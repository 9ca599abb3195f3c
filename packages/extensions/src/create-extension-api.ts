import type { HookBus } from "./create-hook-bus";
import type { BuiltinHooks, HookHandler, HookMap, HookSubscribeOptions } from "./hook-map";

/** The API a bus hands an extension's `setup` (see {@link createExtensionApi}). */
export interface ExtensionApi<M extends HookMap<M>> {
  /** The extension's name, attached to every handler it registers. */
  readonly extensionId: string;
  /**
   * Registers a handler with this extension's id. Same contract as `HookBus.on` (registration order,
   * error isolation, timeout); returns a function that removes the registration.
   */
  on<K extends keyof (M & BuiltinHooks) & string>(
    name: K,
    handler: HookHandler<M & BuiltinHooks, K>,
    options?: Omit<HookSubscribeOptions, "extensionId">,
  ): () => void;
}

/** An extension API bound to a bus, and the way to take back everything registered through it. */
export interface ScopedExtensionApi<M extends HookMap<M>> {
  api: ExtensionApi<M>;
  /**
   * Removes every handler registered through `api`; from then on `api.on` registers nothing (it
   * returns a no-op), so a `setup` still running after a failed install cannot add handlers late.
   * Idempotent.
   */
  dispose(): void;
}

/**
 * Creates the API for one extension on `bus`: every handler registered through it carries
 * `extensionId`, and `dispose()` removes them all. Hosts that give extensions more than `on` spread
 * `api` into their own object.
 */
export function createExtensionApi<M extends HookMap<M>>(
  bus: HookBus<M>,
  extensionId: string,
): ScopedExtensionApi<M> {
  const unsubscribers = new Set<() => void>();
  let disposed = false;
  const api: ExtensionApi<M> = {
    extensionId,
    on(name, handler, options) {
      if (disposed) return () => {};
      const unsubscribe = bus.on(name, handler, { ...options, extensionId });
      const remove = () => {
        unsubscribe();
        unsubscribers.delete(remove);
      };
      unsubscribers.add(remove);
      return remove;
    },
  };
  return {
    api,
    dispose() {
      disposed = true;
      for (const remove of [...unsubscribers]) remove();
    },
  };
}
