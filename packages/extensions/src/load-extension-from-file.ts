import { stat } from "node:fs/promises";
import path from "node:path";
import { pathToFileURL } from "node:url";
import { DEFAULT_HOOK_TIMEOUT_MS } from "./create-hook-bus";
import type { ExtensionDefinition } from "./define-extension";
import { EXTENSION_API_VERSION } from "./extension-api-version";
import { ExtensionError } from "./extension-error";
import { validateExtensionDefinition } from "./internal/validate-extension-definition";
import { assertTimeoutMs, withinTimeout } from "./internal/within-timeout";

/** File extensions Node imports natively. */
const JAVASCRIPT_EXTENSIONS = new Set([".js", ".mjs", ".cjs"]);
/** File extensions imported through jiti (an optional peer dependency). */
const TYPESCRIPT_EXTENSIONS = new Set([".ts", ".mts", ".cts"]);

/** An extension definition and the file it came from. */
export interface LoadedExtension {
  /** The module's default export, validated. */
  extension: ExtensionDefinition<unknown>;
  /** Absolute path of the file. */
  file: string;
}

/** Options of {@link loadExtensionFromFile}. */
export interface LoadExtensionOptions {
  /**
   * How long the import may take (the module and its top-level `await`s), in ms. Default 30 s
   * (`DEFAULT_HOOK_TIMEOUT_MS`); `Infinity` waits forever. Must be positive.
   */
  timeoutMs?: number;
}

/**
 * Imports an extension module and returns its validated default export.
 *
 * - `.js`, `.mjs`, `.cjs` are imported with Node's own `import()`.
 * - `.ts`, `.mts`, `.cts` are imported with `jiti` (an optional peer dependency, loaded only when a
 *   TypeScript file is imported), because Node 20 cannot strip types itself. jiti transpiles without
 *   type checking and writes no cache files; the module's own relative imports may be TypeScript too.
 *   Without jiti installed, a TypeScript file fails with `EXTENSION_LOAD_FAILED` whose message says
 *   to install it; `.js` / `.mjs` / `.cjs` files never need it.
 * - The default export is an extension definition (`defineExtension({ apiVersion, name, setup })`), or
 *   a pi-style factory function (`export default function (pi) { pi.on(…) }`), returned as a
 *   definition with `style: "pi"`, named after the file, whose `setup` calls the function with the API
 *   the host gives it (the runtime gives such extensions a pi-shaped API).
 *
 * Node caches modules by URL: loading the same `.js` file twice returns the same module instance,
 * so edits to the file are not picked up within one process.
 *
 * An import that does not finish within `timeoutMs` (a top-level `await` that never settles) fails
 * with `EXTENSION_TIMEOUT`; the module may go on running in the background (JavaScript cannot
 * cancel it), and a module that blocks the thread (a synchronous busy loop) cannot be stopped at all.
 *
 * Relative paths resolve against `process.cwd()`. Does not call `setup`; see `installExtension`.
 *
 * @throws ExtensionError `EXTENSION_LOAD_FAILED` (file missing, unsupported extension, jiti missing for
 * a TypeScript file, import threw),
 * `EXTENSION_INVALID` (no default export or not a definition), `EXTENSION_API_VERSION`,
 * `EXTENSION_TIMEOUT`. Every error names the absolute file path. RangeError for a `timeoutMs` that
 * is not positive.
 */
export async function loadExtensionFromFile(
  file: string,
  options: LoadExtensionOptions = {},
): Promise<LoadedExtension> {
  const timeoutMs = options.timeoutMs ?? DEFAULT_HOOK_TIMEOUT_MS;
  assertTimeoutMs(timeoutMs, "timeoutMs of loadExtensionFromFile");
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
  const importTypeScript = isTypeScript ? await loadTypeScriptImporter(absolute) : undefined;
  let namespace: Record<string, unknown>;
  try {
    const importing: Promise<Record<string, unknown>> = importTypeScript
      ? importTypeScript(absolute)
      : import(pathToFileURL(absolute).href);
    namespace = await withinTimeout(
      importing,
      timeoutMs,
      () =>
        new ExtensionError(
          "EXTENSION_TIMEOUT",
          `Extension file ${absolute}: import did not finish within ${timeoutMs} ms (a top-level await that never settles?)`,
          { file: absolute, timeoutMs },
        ),
    );
  } catch (error) {
    if (ExtensionError.isInstance(error)) throw error;
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
  const exported = unwrapDefault(namespace.default);
  if (typeof exported === "function") {
    return { extension: piFactory(exported as (api: unknown) => unknown, absolute), file: absolute };
  }
  return { extension: validateExtensionDefinition(exported, absolute), file: absolute };
}

/**
 * A pi-style extension (the default export is a function that receives pi's `ExtensionAPI`) as a
 * definition: named after its file (without the extension; `index` files after their folder), with
 * `style: "pi"` so the host hands it a pi-shaped API.
 */
function piFactory(factory: (api: unknown) => unknown, file: string): ExtensionDefinition<unknown> {
  const base = path.basename(file, path.extname(file));
  const name = base === "index" ? path.basename(path.dirname(file)) : base;
  return {
    apiVersion: EXTENSION_API_VERSION,
    name,
    style: "pi",
    setup: (api) => factory(api) as void | Promise<void>,
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

/** The TypeScript loader's version range this package is tested with (its optional peer dependency). */
const JITI_RANGE = "^2.7.0";

/**
 * Imports jiti (only when a TypeScript extension is loaded) and returns a function that imports one
 * file with it. jiti is an optional peer dependency: without it, throws `EXTENSION_LOAD_FAILED`
 * naming the package to install.
 */
async function loadTypeScriptImporter(
  file: string,
): Promise<(file: string) => Promise<Record<string, unknown>>> {
  let jiti: typeof import("jiti");
  try {
    jiti = await import("jiti");
  } catch (error) {
    throw new ExtensionError(
      "EXTENSION_LOAD_FAILED",
      `Extension file ${file}: loading a TypeScript extension needs the optional peer dependency jiti, which is not installed: npm install jiti@"${JITI_RANGE}" (or write the extension as .js / .mjs)`,
      { file, cause: error },
    );
  }
  const loader = jiti.createJiti(import.meta.url, { fsCache: false, interopDefault: false });
  return async (target) => (await loader.import(target)) as Record<string, unknown>;
}

/**
 * A CommonJS module (or a TypeScript file jiti compiled as one) whose `module.exports` has its own
 * `default` shows up as `{ default: { default: definition } }`; unwrap that one level.
 */
function unwrapDefault(value: unknown): unknown {
  if (
    (typeof value === "object" || typeof value === "function") &&
    value !== null &&
    !("setup" in value) &&
    "default" in value
  ) {
    return (value as { default: unknown }).default;
  }
  return value;
}
