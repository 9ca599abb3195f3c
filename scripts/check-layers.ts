/**
 * Layer check for the Arbor monorepo.
 *
 * Rules (ARCHITECTURE.md):
 * 1. A workspace package may import another `@arbor/*` package only when that package sits in a
 *    strictly lower layer (`"arbor": { "layer": N }` in each package.json). Same-layer and upward
 *    imports fail, in source files and in package.json dependencies alike.
 * 2. A library's root entry (`src/index.ts` and every file it reaches through relative imports, and
 *    `dist/index.js` with its chunks when built) never imports an SDK or the tokenizer: those live
 *    behind subpath exports so that picking one layer stays light.
 *
 * Run: `pnpm check-layers` (exit code 1 and one line per violation on failure).
 */
import fs from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";

/** Packages that must never be reachable from a library's root entry. */
export const HEAVY_MODULES: readonly string[] = [
  "@anthropic-ai/sdk",
  "openai",
  "js-tiktoken",
  "tiktoken",
  "gpt-tokenizer",
];

/** One broken rule, with the file that breaks it. */
export interface LayerViolation {
  kind: "upward-import" | "upward-dependency" | "heavy-root-import";
  packageName: string;
  file: string;
  specifier: string;
  message: string;
}

interface WorkspacePackage {
  name: string;
  dir: string;
  layer: number;
  isLibrary: boolean;
  dependencies: string[];
}

const IMPORT_PATTERN =
  /(?:^|[^\w$.])(?:import|export)\s*(?:type\s+)?(?:[\w$*{}\s,]+?\s*from\s*)?["']([^"']+)["']|import\(\s*["']([^"']+)["']\s*\)/g;

/** Returns every module specifier that a JS or TS source text imports or re-exports. */
export function extractImports(sourceText: string): string[] {
  const withoutComments = sourceText.replace(/\/\*[\s\S]*?\*\//g, "").replace(/(^|[^:"'])\/\/.*$/gm, "$1");
  const found: string[] = [];
  for (const match of withoutComments.matchAll(IMPORT_PATTERN)) {
    const specifier = match[1] ?? match[2];
    if (specifier) found.push(specifier);
  }
  return found;
}

function packageNameOf(specifier: string): string {
  const parts = specifier.split("/");
  return specifier.startsWith("@") ? parts.slice(0, 2).join("/") : (parts[0] ?? specifier);
}

function readWorkspace(rootDir: string): WorkspacePackage[] {
  const result: WorkspacePackage[] = [];
  for (const group of ["packages", "apps"]) {
    const groupDir = path.join(rootDir, group);
    if (!fs.existsSync(groupDir)) continue;
    for (const entry of fs.readdirSync(groupDir)) {
      const manifestPath = path.join(groupDir, entry, "package.json");
      if (!fs.existsSync(manifestPath)) continue;
      const manifest = JSON.parse(fs.readFileSync(manifestPath, "utf8"));
      const layer = manifest.arbor?.layer;
      if (typeof layer !== "number") {
        throw new Error(`${manifestPath}: missing "arbor": { "layer": N }`);
      }
      result.push({
        name: manifest.name,
        dir: path.join(groupDir, entry),
        layer,
        isLibrary: group === "packages",
        dependencies: Object.keys({ ...manifest.dependencies, ...manifest.peerDependencies }),
      });
    }
  }
  return result;
}

function listSourceFiles(dir: string): string[] {
  if (!fs.existsSync(dir)) return [];
  const files: string[] = [];
  for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) {
      if (entry.name !== "node_modules" && entry.name !== "dist") files.push(...listSourceFiles(full));
    } else if (/\.(ts|tsx|mts|js|mjs)$/.test(entry.name)) {
      files.push(full);
    }
  }
  return files;
}

function resolveRelative(fromFile: string, specifier: string): string | undefined {
  const base = path.resolve(path.dirname(fromFile), specifier);
  const candidates = [
    base,
    `${base}.ts`,
    `${base}.js`,
    path.join(base, "index.ts"),
    path.join(base, "index.js"),
  ];
  if (base.endsWith(".js")) candidates.push(`${base.slice(0, -3)}.ts`);
  return candidates.find((candidate) => fs.existsSync(candidate) && fs.statSync(candidate).isFile());
}

/** Follows relative imports from `entryFile` and reports every heavy module reached. */
function findHeavyImports(entryFile: string): Array<{ file: string; specifier: string }> {
  const seen = new Set<string>();
  const queue = [entryFile];
  const hits: Array<{ file: string; specifier: string }> = [];
  while (queue.length > 0) {
    const file = queue.pop() as string;
    if (seen.has(file)) continue;
    seen.add(file);
    for (const specifier of extractImports(fs.readFileSync(file, "utf8"))) {
      if (specifier.startsWith(".")) {
        const resolved = resolveRelative(file, specifier);
        if (resolved) queue.push(resolved);
      } else if (HEAVY_MODULES.includes(packageNameOf(specifier))) {
        hits.push({ file, specifier });
      }
    }
  }
  return hits;
}

/** Checks every workspace package under `rootDir` and returns the violations found. */
export function checkLayers(rootDir: string): LayerViolation[] {
  const packages = readWorkspace(rootDir);
  const layerOf = new Map(packages.map((pkg) => [pkg.name, pkg.layer]));
  const violations: LayerViolation[] = [];
  for (const pkg of packages) {
    for (const dependency of pkg.dependencies) {
      const depLayer = layerOf.get(dependency);
      if (depLayer !== undefined && depLayer >= pkg.layer) {
        violations.push({
          kind: "upward-dependency",
          packageName: pkg.name,
          file: path.join(pkg.dir, "package.json"),
          specifier: dependency,
          message: `${pkg.name} (layer ${pkg.layer}) depends on ${dependency} (layer ${depLayer})`,
        });
      }
    }
    for (const file of [
      ...listSourceFiles(path.join(pkg.dir, "src")),
      ...listSourceFiles(path.join(pkg.dir, "test")),
    ]) {
      for (const specifier of extractImports(fs.readFileSync(file, "utf8"))) {
        const target = packageNameOf(specifier);
        const depLayer = layerOf.get(target);
        if (depLayer === undefined || depLayer < pkg.layer) continue;
        if (target === pkg.name && file.includes(`${path.sep}test${path.sep}`)) continue;
        violations.push({
          kind: "upward-import",
          packageName: pkg.name,
          file,
          specifier,
          message: `${path.relative(rootDir, file)}: ${pkg.name} (layer ${pkg.layer}) imports "${specifier}" (layer ${depLayer})`,
        });
      }
    }
    if (!pkg.isLibrary) continue;
    const roots = [path.join(pkg.dir, "src", "index.ts"), path.join(pkg.dir, "dist", "index.js")];
    for (const root of roots.filter((candidate) => fs.existsSync(candidate))) {
      for (const hit of findHeavyImports(root)) {
        violations.push({
          kind: "heavy-root-import",
          packageName: pkg.name,
          file: hit.file,
          specifier: hit.specifier,
          message: `${path.relative(rootDir, hit.file)}: the root entry of ${pkg.name} reaches "${hit.specifier}"; move it behind a subpath export`,
        });
      }
    }
  }
  return violations;
}

const invokedDirectly =
  process.argv[1] !== undefined && fileURLToPath(import.meta.url) === path.resolve(process.argv[1]);
if (invokedDirectly) {
  const rootDir = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
  const violations = checkLayers(rootDir);
  for (const violation of violations) console.error(`layer check: ${violation.message}`);
  if (violations.length > 0) process.exit(1);
  console.log("layer check: all imports point downward; root entries are light");
}
