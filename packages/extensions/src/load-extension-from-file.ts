import { stat } from "node:fs/promises";
import path from "node:path";
import { pathToFileURL } from "node:url";
import type { ExtensionDefinition } from "./define-extension";
import { ExtensionError } from "./extension-error";
import { validateExtensionDefinition } from "./internal/validate-extension-definition";

/** File extensions Node imports natively. */
const JAVASCRIPT_EXTENSIONS = new Set([".js", ".mjs", ".cjs"]);
/** File extensions imported through tsx. */
const TYPESCRIPT_EXTENSIONS = new Set([".ts", ".mts", ".cts"]);

/** An extension definition and the file it came from. */
export interface LoadedExtension {
  /** The module's default export, validated. */
  extension: ExtensionDefinition<unknown>;
  /** Absolute path of the file. */
  file: string;
}

/**
 * Imports an extension module and returns its validated default export.
 *
 * - `.js`, `.mjs`, `.cjs` are imported with Node's own `import()`.
 * - `.ts`, `.mts`, `.cts` are imported with tsx's programmatic API (`tsImport` from `tsx/esm/api`,
 *   loaded only when a TypeScript file is imported), because Node 20 cannot strip types itself.
 *   tsx transpiles without type checking, and the module's own relative imports may be TypeScript
 *   too.
 * - The default export must be an extension definition (`defineExtension({ apiVersion, name, setup })`).
 *
 * Node caches modules by URL: loading the same `.js` file twice returns the same module instance,
 * so edits to the file are not picked up within one process.
 *
 * Relative paths resolve against `process.cwd()`. Does not call `setup`; see `installExtension`.
 *
 * @throws ExtensionError `EXTENSION_LOAD_FAILED` (file missing, unsupported extension, import threw),
 * `EXTENSION_INVALID` (no default export or not a definition), `EXTENSION_API_VERSION`. Every error
 * names the absolute file path.
 */
export async function loadExtensionFromFile(file: string): Promise<LoadedExtension> {
  const absolute = path.resolve(file);
  const extension = path.extname(absolute).toLowerCase();
  const isTypeScript = TYPESCRIPT_EXTENSIONS.has(extension);
  if (!isTypeScript && !JAVASCRIPT_EXTENSIONS.has(extension)) {
    throw new ExtensionError(
      "EXTENSION_LOAD_FAILED",
      `Extension file ${absolute}: unsupported file extension "${extension}" (expected .js, .mjs, .cjs, .ts, .mts or .cts)`,
      { file: absolute },
    );
  }
  await assertIsFile(absolute);
  const url = pathToFileURL(absolute).href;
  let namespace: Record<string, unknown>;
  try {
    namespace = isTypeScript ? await importTypeScript(url) : await import(url);
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error);
    throw new ExtensionError(
      "EXTENSION_LOAD_FAILED",
      `Extension file ${absolute}: import failed: ${reason}`,
      {
        file: absolute,
        cause: error,
      },
    );
  }
  if (!("default" in namespace) || namespace.default === undefined) {
    throw new ExtensionError(
      "EXTENSION_INVALID",
      `Extension file ${absolute}: no default export; export default defineExtension({ apiVersion, name, setup })`,
      { file: absolute },
    );
  }
  return {
    extension: validateExtensionDefinition(unwrapDefault(namespace.default), absolute),
    file: absolute,
  };
}

async function assertIsFile(absolute: string): Promise<void> {
  try {
    const info = await stat(absolute);
    if (info.isFile()) return;
  } catch (error) {
    throw new ExtensionError("EXTENSION_LOAD_FAILED", `Extension file ${absolute}: not found`, {
      file: absolute,
      cause: error,
    });
  }
  throw new ExtensionError("EXTENSION_LOAD_FAILED", `Extension file ${absolute}: not a regular file`, {
    file: absolute,
  });
}

async function importTypeScript(url: string): Promise<Record<string, unknown>> {
  const { tsImport } = await import("tsx/esm/api");
  return tsImport(url, { parentURL: import.meta.url });
}

/**
 * A CommonJS module (or a TypeScript file tsx compiled as one) whose `module.exports` has its own
 * `default` shows up as `{ default: { default: definition } }`; unwrap that one level.
 */
function unwrapDefault(value: unknown): unknown {
  if (typeof value === "object" && value !== null && !("setup" in value) && "default" in value) {
    return (value as { default: unknown }).default;
  }
  return value;
}
