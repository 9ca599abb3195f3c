export { copyPlainData } from "./copy-plain-data";
export type { ExtensionApi, ScopedExtensionApi } from "./create-extension-api";
export { createExtensionApi } from "./create-extension-api";
export type { CreateHookBusOptions, HookBus } from "./create-hook-bus";
export { createHookBus, DEFAULT_HOOK_TIMEOUT_MS } from "./create-hook-bus";
export type { ExtensionDefinition } from "./define-extension";
export { defineExtension } from "./define-extension";
export { EXTENSION_API_VERSION } from "./extension-api-version";
export type { ExtensionErrorCode, ExtensionErrorDetails } from "./extension-error";
export { ExtensionError } from "./extension-error";
export type { HookErrorCode, HookErrorDetails } from "./hook-error";
export { HookError } from "./hook-error";
export type {
  BuiltinHooks,
  EmitResult,
  HandlerReturn,
  HookContext,
  HookDispatchOptions,
  HookErrorEvent,
  HookEvent,
  HookHandler,
  HookMap,
  HookResult,
  HookSpec,
  HookSubscribeOptions,
  InterceptorName,
  InterceptResult,
  NotificationName,
} from "./hook-map";
export type { InstallExtensionOptions } from "./install-extension";
export { installExtension } from "./install-extension";
export type { LoadExtensionOptions, LoadedExtension } from "./load-extension-from-file";
export { loadExtensionFromFile } from "./load-extension-from-file";
