#!/usr/bin/env node
/**
 * The consumer check: installs the packages as a stranger would and uses them. Run by `.ci/run`
 * (`pnpm consumer-check`); needs the packages built and the npm registry for third-party packages.
 *
 * 1. `pnpm pack` every public package (workspace ranges become real ones); each tarball's size, file
 *    count and file list are checked against `scripts/consumer-budget.json` (LICENSE, README and the
 *    built entry points ship; tests, fixtures and goldens never do), and `npm publish --dry-run` runs
 *    on it.
 * 2. A fresh npm project outside the workspace gets every tarball plus the optional peers and
 *    TypeScript, with plain `npm`. There: every entry point is imported from ESM and `require()`d
 *    (Node >= 20.19), a TypeScript file is type-checked under `moduleResolution` `node16` and
 *    `bundler` with `skipLibCheck: false`, and every package's examples (packages/<name>/examples)
 *    are type-checked, compiled and run; the example extensions (examples/extensions) are
 *    type-checked and compiled.
 * 3. A second fresh project gets only `@arbor/session-store` (and the Arbor packages it depends on):
 *    no provider SDK, no tokenizer, no TypeScript loader may be installed. Then the other libraries
 *    join, still without their optional peers: the SDK subpaths, the tokenizer and a `.ts` extension
 *    must fail with typed errors that name the package to install.
 *
 * `--keep` leaves the temporary folders in place and prints where they are.
 */
import { execFileSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";

const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const keep = process.argv.includes("--keep");
const budget = JSON.parse(fs.readFileSync(path.join(repoRoot, "scripts/consumer-budget.json"), "utf8"));
const HEAVY = ["@anthropic-ai/sdk", "openai", "js-tiktoken", "tiktoken", "jiti", "tsx", "esbuild", "pg"];
const failures = [];
let checks = 0;

function check(ok, what) {
  checks++;
  if (ok) console.log(`  ok   ${what}`);
  else {
    console.log(`  FAIL ${what}`);
    failures.push(what);
  }
}

function run(command, args, options = {}) {
  return execFileSync(command, args, {
    encoding: "utf8",
    stdio: ["ignore", "pipe", "pipe"],
    maxBuffer: 64 * 1024 * 1024,
    ...options,
  });
}

function tryRun(command, args, options = {}) {
  try {
    return { ok: true, output: run(command, args, options) };
  } catch (error) {
    return { ok: false, output: `${error.stdout ?? ""}${error.stderr ?? ""}${error.message}` };
  }
}

function publicPackages() {
  const dirs = fs.readdirSync(path.join(repoRoot, "packages")).sort();
  return dirs
    .map((dir) => ({
      dir,
      manifest: JSON.parse(fs.readFileSync(path.join(repoRoot, "packages", dir, "package.json"), "utf8")),
    }))
    .filter(({ manifest }) => !manifest.private);
}

function section(title) {
  console.log(`\n--- ${title}`);
}

const work = fs.mkdtempSync(path.join(os.tmpdir(), "arbor-consumer-"));
const tarballDir = path.join(work, "tarballs");
fs.mkdirSync(tarballDir);
const packages = publicPackages();

// 1. Pack, budget, publish dry run.
section("pack, budget and publish dry run");
const tarballs = new Map();
for (const { dir, manifest } of packages) {
  const out = run("pnpm", ["pack", "--pack-destination", tarballDir], {
    cwd: path.join(repoRoot, "packages", dir),
  });
  const file = out
    .trim()
    .split("\n")
    .filter((line) => line.endsWith(".tgz"))
    .pop();
  const tarball = path.isAbsolute(file) ? file : path.join(tarballDir, path.basename(file));
  tarballs.set(manifest.name, tarball);
  const listing = run("tar", ["-tvzf", tarball])
    .trim()
    .split("\n")
    .map((line) => {
      const parts = line.trim().split(/\s+/);
      return {
        size: Number(parts[2]),
        path: parts
          .slice(5)
          .join(" ")
          .replace(/^package\//, ""),
      };
    })
    .filter((entry) => !entry.path.endsWith("/"));
  const packed = fs.statSync(tarball).size;
  const unpacked = listing.reduce((sum, entry) => sum + entry.size, 0);
  const limits = budget.packages[manifest.name];
  check(limits !== undefined, `${manifest.name}: has a budget in scripts/consumer-budget.json`);
  if (!limits) continue;
  check(
    packed <= limits.maxPackedBytes,
    `${manifest.name}: packed ${packed} B <= ${limits.maxPackedBytes} B (scripts/consumer-budget.json)`,
  );
  check(
    unpacked <= limits.maxUnpackedBytes,
    `${manifest.name}: unpacked ${unpacked} B <= ${limits.maxUnpackedBytes} B`,
  );
  check(listing.length <= limits.maxFiles, `${manifest.name}: ${listing.length} files <= ${limits.maxFiles}`);
  const forbidden = listing.filter((entry) =>
    budget.forbidden.some((pattern) => new RegExp(pattern).test(entry.path)),
  );
  check(
    forbidden.length === 0,
    `${manifest.name}: no test, fixture or golden ships${
      forbidden.length
        ? ` (found ${forbidden
            .slice(0, 3)
            .map((e) => e.path)
            .join(", ")})`
        : ""
    }`,
  );
  const required = [
    ...budget.required,
    ...Object.values(manifest.exports).flatMap((target) =>
      typeof target === "string" ? [target] : [target.types, target.import],
    ),
  ]
    .filter(Boolean)
    .map((file) => file.replace(/^\.\//, ""));
  const missing = required.filter((file) => !listing.some((entry) => entry.path === file));
  check(
    missing.length === 0,
    `${manifest.name}: ships ${required.length} required files${missing.length ? ` (missing ${missing.join(", ")})` : ""}`,
  );
  const packedManifest = JSON.parse(run("tar", ["-xzOf", tarball, "package/package.json"]));
  const workspaceRanges = Object.entries({
    ...packedManifest.dependencies,
    ...packedManifest.peerDependencies,
  }).filter(([, range]) => /^(workspace|catalog):/.test(range));
  check(
    workspaceRanges.length === 0,
    `${manifest.name}: no workspace: or catalog: range in the packed package.json`,
  );
  const exact = Object.entries(packedManifest.dependencies ?? {}).filter(
    ([name, range]) => !name.startsWith("@arbor/") && /^\d/.test(range),
  );
  check(
    exact.length === 0,
    `${manifest.name}: third-party dependencies use ranges${exact.length ? ` (${exact.map(([n, r]) => `${n}@${r}`).join(", ")})` : ""}`,
  );
  const publish = tryRun("npm", ["publish", tarball, "--dry-run", "--ignore-scripts"], { cwd: tarballDir });
  check(
    publish.ok,
    `${manifest.name}: npm publish --dry-run${publish.ok ? "" : `\n${publish.output.slice(-2000)}`}`,
  );
}

function npmProject(name, dependencies) {
  const dir = path.join(work, name);
  fs.mkdirSync(dir);
  fs.writeFileSync(
    path.join(dir, "package.json"),
    `${JSON.stringify({ name, private: true, type: "module" }, null, 2)}\n`,
  );
  const install = tryRun(
    "npm",
    ["install", "--no-audit", "--no-fund", "--prefer-offline", "--loglevel=error", ...dependencies],
    { cwd: dir },
  );
  check(
    install.ok,
    `${name}: npm install ${dependencies.map((d) => path.basename(d)).join(" ")}${install.ok ? "" : `\n${install.output.slice(-3000)}`}`,
  );
  return dir;
}

function installed(dir, name) {
  return fs.existsSync(path.join(dir, "node_modules", name, "package.json"));
}

function entryPoints() {
  return packages.flatMap(({ manifest }) =>
    Object.keys(manifest.exports)
      .filter((subpath) => subpath !== "./package.json")
      .map((subpath) => `${manifest.name}${subpath.slice(1)}`),
  );
}

// 2. The full install.
section("a fresh npm project with every package and the optional peers");
const peers = budget.consumerPeers;
const full = npmProject("arbor-consumer-full", [...tarballs.values(), ...peers]);
for (const entry of entryPoints()) {
  const esm = tryRun(
    process.execPath,
    [
      "--input-type=module",
      "-e",
      `const m = await import(${JSON.stringify(entry)}); if (Object.keys(m).length === 0) throw new Error("no exports");`,
    ],
    { cwd: full },
  );
  check(esm.ok, `import("${entry}") from ESM${esm.ok ? "" : `\n${esm.output.slice(-1500)}`}`);
  const cjs = tryRun(
    process.execPath,
    [
      "--no-warnings",
      "-e",
      `const m = require(${JSON.stringify(entry)}); if (Object.keys(m).length === 0) throw new Error("no exports");`,
    ],
    { cwd: full },
  );
  check(cjs.ok, `require("${entry}") from CommonJS${cjs.ok ? "" : `\n${cjs.output.slice(-1500)}`}`);
}
const version = tryRun(
  process.execPath,
  [
    "--input-type=module",
    "-e",
    'import { VERSION } from "@arbor/session-store"; import { createRequire } from "node:module"; const v = createRequire(import.meta.url)("@arbor/session-store/package.json").version; if (VERSION !== v) throw new Error("VERSION " + VERSION + " != package.json " + v);',
  ],
  { cwd: full },
);
check(
  version.ok,
  `@arbor/session-store VERSION is the packed package.json's version${version.ok ? "" : `\n${version.output}`}`,
);

const tsc = path.join(full, "node_modules/typescript/bin/tsc");
fs.copyFileSync(path.join(repoRoot, "scripts/consumer/surface.ts"), path.join(full, "surface.ts"));
for (const resolution of ["node16", "bundler"]) {
  const config = {
    compilerOptions: {
      target: "ES2022",
      module: resolution === "node16" ? "Node16" : "ESNext",
      moduleResolution: resolution === "node16" ? "Node16" : "Bundler",
      strict: true,
      skipLibCheck: false,
      noEmit: true,
      types: ["node"],
    },
    files: ["surface.ts"],
  };
  fs.writeFileSync(path.join(full, `tsconfig.${resolution}.json`), JSON.stringify(config, null, 2));
  const result = tryRun(process.execPath, [tsc, "-p", `tsconfig.${resolution}.json`], { cwd: full });
  check(
    result.ok,
    `surface.ts type-checks under moduleResolution ${resolution} (skipLibCheck false)${result.ok ? "" : `\n${result.output.slice(-4000)}`}`,
  );
}

section("the examples, type-checked, compiled and run in the fresh project");
const examplesDir = path.join(full, "examples");
for (const { dir } of packages) {
  const source = path.join(repoRoot, "packages", dir, "examples");
  if (!fs.existsSync(source)) continue;
  fs.cpSync(source, path.join(examplesDir, dir), { recursive: true });
}
// The example extensions (type imports only) must type-check outside the repository too: they are
// compiled with the others, not run (an extension is loaded by a session, see their tests).
fs.cpSync(path.join(repoRoot, "examples/extensions"), path.join(examplesDir, "extensions"), {
  recursive: true,
  filter: (source) => !source.endsWith(".md"),
});
const exampleConfig = {
  compilerOptions: {
    target: "ES2022",
    module: "Node16",
    moduleResolution: "Node16",
    strict: true,
    skipLibCheck: false,
    outDir: "examples-js",
    rootDir: "examples",
    types: ["node"],
  },
  include: ["examples"],
};
fs.writeFileSync(path.join(full, "tsconfig.examples.json"), JSON.stringify(exampleConfig, null, 2));
const compiled = tryRun(process.execPath, [tsc, "-p", "tsconfig.examples.json"], { cwd: full });
check(
  compiled.ok,
  `every example type-checks and compiles (node16, skipLibCheck false)${compiled.ok ? "" : `\n${compiled.output.slice(-4000)}`}`,
);
if (compiled.ok) {
  for (const { dir } of packages) {
    const folder = path.join(examplesDir, dir);
    if (!fs.existsSync(folder)) continue;
    for (const file of fs.readdirSync(folder).filter((name) => name.endsWith(".ts"))) {
      for (const data of fs.readdirSync(folder).filter((name) => !name.endsWith(".ts"))) {
        fs.copyFileSync(path.join(folder, data), path.join(full, "examples-js", dir, data));
      }
      const script = path.join(full, "examples-js", dir, file.replace(/\.ts$/, ".js"));
      const result = tryRun(process.execPath, [script], {
        cwd: full,
        env: { ...process.env, ANTHROPIC_API_KEY: "", OPENAI_API_KEY: "" },
      });
      check(
        result.ok,
        `example packages/${dir}/examples/${file} runs${result.ok ? `: ${result.output.trim().split("\n").pop()}` : `\n${result.output.slice(-3000)}`}`,
      );
    }
  }
}

// 3. Session store only, then the other libraries without their optional peers.
section("only @arbor/session-store");
const storeDeps = ["@arbor/providers", "@arbor/agent-loop", "@arbor/session-store"].map((name) =>
  tarballs.get(name),
);
const minimal = npmProject("arbor-consumer-session-store", storeDeps);
for (const heavy of HEAVY)
  check(!installed(minimal, heavy), `installing @arbor/session-store brings no ${heavy}`);
const storeImport = tryRun(
  process.execPath,
  [
    "--input-type=module",
    "-e",
    'import { createInMemorySessionStore } from "@arbor/session-store"; const s = createInMemorySessionStore(); s.appendMessage({ role: "user", content: "hi", timestamp: 1 }); if (s.getProjection().messages.length !== 1) throw new Error("projection");',
  ],
  { cwd: minimal },
);
check(storeImport.ok, `@arbor/session-store works alone${storeImport.ok ? "" : `\n${storeImport.output}`}`);

section("the other libraries without their optional peers: typed errors naming what to install");
const rest = ["@arbor/extensions", "@arbor/compaction", "@arbor/runtime"].map((name) => tarballs.get(name));
const install = tryRun(
  "npm",
  ["install", "--no-audit", "--no-fund", "--prefer-offline", "--loglevel=error", ...rest],
  { cwd: minimal },
);
check(install.ok, `npm install the other libraries${install.ok ? "" : `\n${install.output.slice(-3000)}`}`);
for (const heavy of HEAVY)
  check(!installed(minimal, heavy), `installing every library without its optional peers brings no ${heavy}`);
fs.writeFileSync(
  path.join(minimal, "ext.ts"),
  'export default { apiVersion: 1, name: "ts-ext", setup(): void {} };\n',
);
const missingPeers = [
  [
    "@anthropic-ai/sdk",
    'const { createAnthropicProvider } = await import("@arbor/providers/anthropic"); createAnthropicProvider();',
    "MISSING_PEER_DEPENDENCY",
  ],
  [
    "openai",
    'const { createOpenAIProvider } = await import("@arbor/providers/openai"); createOpenAIProvider();',
    "MISSING_PEER_DEPENDENCY",
  ],
  [
    "js-tiktoken",
    'const { createTiktokenCounter } = await import("@arbor/compaction/tiktoken"); createTiktokenCounter().preload();',
    "MISSING_PEER_DEPENDENCY",
  ],
  [
    "jiti",
    'const { loadExtensionFromFile } = await import("@arbor/extensions"); await loadExtensionFromFile("ext.ts");',
    "EXTENSION_LOAD_FAILED",
  ],
];
for (const [name, code, expectedCode] of missingPeers) {
  const script = `try { ${code} console.log("NO ERROR"); } catch (error) { console.log(JSON.stringify({ code: error.code, name: error.name, message: error.message })); }`;
  const result = tryRun(process.execPath, ["--input-type=module", "-e", script], { cwd: minimal });
  let report;
  try {
    report = JSON.parse(result.output.trim().split("\n").pop());
  } catch {
    report = { message: result.output };
  }
  check(
    report.code === expectedCode && report.message.includes(`npm install ${name}`),
    `without ${name}: ${report.code} "${report.message}"`,
  );
}

console.log(
  `\nconsumer check: ${checks - failures.length} of ${checks} checks passed${keep ? `; folders kept in ${work}` : ""}`,
);
if (!keep) fs.rmSync(work, { recursive: true, force: true });
if (failures.length > 0) {
  console.error(`consumer check failed:\n- ${failures.map((f) => f.split("\n")[0]).join("\n- ")}`);
  process.exit(1);
}
