import type { ExtensionDefinition } from "../define-extension";
import { EXTENSION_API_VERSION } from "../extension-api-version";
import { ExtensionError } from "../extension-error";

/**
 * Checks that `value` is an extension definition. `file` (when the value came from a file) is named
 * in the error and attached to it. Returns `value` unchanged; never mutates it.
 *
 * @throws ExtensionError `EXTENSION_INVALID` or `EXTENSION_API_VERSION`.
 */
export function validateExtensionDefinition(value: unknown, file?: string): ExtensionDefinition<unknown> {
  const where = file === undefined ? "Extension definition" : `Extension file ${file}`;
  if (typeof value !== "object" || value === null) {
    throw new ExtensionError(
      "EXTENSION_INVALID",
      `${where}: expected an object made with defineExtension({ apiVersion, name, setup }), got ${describe(value)}`,
      { file },
    );
  }
  const candidate = value as Record<string, unknown>;
  const name = typeof candidate.name === "string" ? candidate.name : undefined;
  if (candidate.apiVersion !== EXTENSION_API_VERSION) {
    throw new ExtensionError(
      "EXTENSION_API_VERSION",
      `${where}: apiVersion is ${describe(candidate.apiVersion)}, but this version of @arbor/extensions supports apiVersion ${EXTENSION_API_VERSION}`,
      { file, extensionName: name },
    );
  }
  if (name === undefined || name.trim().length === 0) {
    throw new ExtensionError(
      "EXTENSION_INVALID",
      `${where}: "name" must be a non-empty string, got ${describe(candidate.name)}`,
      { file },
    );
  }
  if (typeof candidate.setup !== "function") {
    throw new ExtensionError(
      "EXTENSION_INVALID",
      `${where}: extension "${name}" needs a "setup" function, got ${describe(candidate.setup)}`,
      { file, extensionName: name },
    );
  }
  if (candidate.style !== undefined && candidate.style !== "arbor" && candidate.style !== "pi") {
    throw new ExtensionError(
      "EXTENSION_INVALID",
      `${where}: extension "${name}" has style ${describe(candidate.style)}; expected "arbor" or "pi"`,
      { file, extensionName: name },
    );
  }
  return value as ExtensionDefinition<unknown>;
}

function describe(value: unknown): string {
  if (value === null) return "null";
  if (typeof value === "string") return JSON.stringify(value);
  if (typeof value === "number" || typeof value === "boolean") return String(value);
  return typeof value;
}
