import { ExtensionError } from "@arbor/extensions";

/**
 * Wraps `target` so that reading any string member it does not have yields a function that throws
 * `ExtensionError` `EXTENSION_UNSUPPORTED` naming the member (`<prefix>.<member>`) and listing the
 * supported ones, when called. Reading it alone does not throw, so feature checks such as
 * `typeof pi.registerTool === "function"` stay harmless until the call. `then` reads as undefined (the
 * object is not a promise) and symbols pass through.
 */
export function withUnsupportedMembers<T extends object>(
  target: T,
  prefix: string,
  extensionName: string,
): T {
  const supported = Object.keys(target).sort().join(", ");
  return new Proxy(target, {
    get(object, key, receiver) {
      if (typeof key === "symbol" || key in object || key === "then" || key === "toJSON") {
        return Reflect.get(object, key, receiver);
      }
      return () => {
        throw unsupported(`${prefix}.${key}`, extensionName, supported);
      };
    },
  });
}

/** The error for a pi API member Arbor does not implement. */
export function unsupported(member: string, extensionName: string, supported?: string): ExtensionError {
  const list = supported === undefined ? "" : ` Supported here: ${supported}.`;
  return new ExtensionError(
    "EXTENSION_UNSUPPORTED",
    `Extension "${extensionName}" used ${member}, which Arbor does not support.${list} See docs/extensions/porting-a-pi-extension.md`,
    { extensionName, member },
  );
}
