/**
 * Error identity across every published package: walks each entry point in each library's
 * `exports` (the built `dist`, as a user imports it), finds every exported error class, and checks
 * that its static `isInstance` recognises its own instances and rejects every other class's.
 */
import fs from "node:fs";
import path from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { describe, expect, it } from "vitest";

const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");

type ErrorClass = (new (...args: never[]) => Error) & { isInstance?: (value: unknown) => boolean };

/** One way to build each exported error class. A new error class fails the test until it is added here. */
const FACTORIES: Record<string, (cls: ErrorClass) => Error> = {
  ArborError: (c) => new (c as unknown as new (code: string, m: string) => Error)("SOME_CODE", "m"),
  ProviderError: (c) => new (c as unknown as new (code: string, m: string) => Error)("PROVIDER_ABORTED", "m"),
  ExtensionError: (c) =>
    new (c as unknown as new (code: string, m: string) => Error)("EXTENSION_INVALID", "m"),
  HookError: (c) =>
    new (c as unknown as new (code: string, m: string, d: object) => Error)("HOOK_FAILED", "m", {
      hookName: "h",
      extensionId: undefined,
    }),
  AgentLoopError: (c) =>
    new (c as unknown as new (code: string, m: string) => Error)("AGENT_LOOP_CONFIG_INVALID", "m"),
  SessionStoreError: (c) =>
    new (c as unknown as new (code: string, m: string) => Error)("ENTRY_NOT_FOUND", "m"),
  SessionStorageError: (c) =>
    new (c as unknown as new (code: string, m: string) => Error)("SESSION_CLOSED", "m"),
  CompactionError: (c) =>
    new (c as unknown as new (code: string, m: string, o: object) => Error)("SUMMARY_EMPTY", "m", {
      stage: "history",
    }),
  CompactionSettingsError: (c) =>
    new (c as unknown as new (key: string, v: unknown, e: string) => Error)("compaction.x", 1, "y"),
  MissingPeerDependencyError: (c) =>
    new (c as unknown as new (d: object) => Error)({ packageName: "p", versionRange: "^1", neededBy: "x" }),
  RuntimeError: (c) => new (c as unknown as new (code: string, m: string) => Error)("SESSION_BUSY", "m"),
  SettingsError: (c) =>
    new (c as unknown as new (code: string, f: string, m: string) => Error)(
      "SETTINGS_INVALID",
      "/f.json",
      "m",
    ),
};

interface FoundClass {
  name: string;
  entry: string;
  cls: ErrorClass;
}

async function exportedErrorClasses(): Promise<FoundClass[]> {
  const found = new Map<ErrorClass, FoundClass>();
  const packagesDir = path.join(repoRoot, "packages");
  for (const dir of fs.readdirSync(packagesDir).sort()) {
    const manifestPath = path.join(packagesDir, dir, "package.json");
    if (!fs.existsSync(manifestPath)) continue;
    const manifest = JSON.parse(fs.readFileSync(manifestPath, "utf8")) as {
      name: string;
      private?: boolean;
      exports: Record<string, string | { import?: string }>;
    };
    if (manifest.private) continue;
    for (const [subpath, target] of Object.entries(manifest.exports)) {
      const file = typeof target === "string" ? target : target.import;
      if (!file?.endsWith(".js")) continue;
      const mod = (await import(pathToFileURL(path.join(packagesDir, dir, file)).href)) as Record<
        string,
        unknown
      >;
      for (const [name, value] of Object.entries(mod)) {
        if (typeof value !== "function" || !(value.prototype instanceof Error)) continue;
        const cls = value as ErrorClass;
        if (!found.has(cls)) found.set(cls, { name, entry: `${manifest.name}${subpath.slice(1)}`, cls });
      }
    }
  }
  return [...found.values()];
}

describe("error identity", async () => {
  const classes = await exportedErrorClasses();

  it("finds the error classes of every package", () => {
    const entries = new Set(classes.map((c) => c.entry.split("/").slice(0, 2).join("/")));
    for (const pkg of [
      "@arbor/providers",
      "@arbor/extensions",
      "@arbor/agent-loop",
      "@arbor/session-store",
      "@arbor/compaction",
      "@arbor/runtime",
    ]) {
      expect(entries).toContain(pkg);
    }
  });

  it("has a factory for every exported error class", () => {
    const missing = classes.filter((c) => !FACTORIES[c.name]).map((c) => `${c.entry}: ${c.name}`);
    expect(missing, "add these classes to FACTORIES in scripts/error-identity.test.ts").toEqual([]);
  });

  for (const own of classes) {
    it(`${own.entry} ${own.name}: isInstance accepts its own instances and rejects the others'`, () => {
      expect(typeof own.cls.isInstance).toBe("function");
      expect(Object.hasOwn(own.cls, "isInstance"), `${own.name} must define its own static isInstance`).toBe(
        true,
      );
      const factory = FACTORIES[own.name];
      if (!factory) throw new Error(`no factory for ${own.name}`);
      const instance = factory(own.cls);
      expect(own.cls.isInstance?.(instance)).toBe(true);
      // Across copies of the package: a plain object with the same symbols is recognised too.
      const foreign = Object.create(null) as Record<symbol, unknown>;
      for (const symbol of Object.getOwnPropertySymbols(instance)) foreign[symbol] = true;
      expect(own.cls.isInstance?.(foreign)).toBe(true);
      expect(own.cls.isInstance?.(new Error("plain"))).toBe(false);
      expect(own.cls.isInstance?.(null)).toBe(false);
      expect(own.cls.isInstance?.("ArborError")).toBe(false);
      for (const other of classes) {
        if (other.cls === own.cls) continue;
        const otherFactory = FACTORIES[other.name];
        if (!otherFactory) continue;
        const otherInstance = otherFactory(other.cls);
        // Every Arbor error (those of @arbor/extensions included) is an ArborError; a subclass
        // instance is an instance of its parent; nothing else is shared.
        const expected = own.name === "ArborError" || otherInstance instanceof own.cls;
        expect(own.cls.isInstance?.(otherInstance), `${own.name}.isInstance(new ${other.name}(...))`).toBe(
          expected,
        );
      }
    });
  }
});
