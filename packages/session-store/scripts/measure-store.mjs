#!/usr/bin/env node
// Side-by-side measurement of the store core against pi 1.6.0 on one session file (not a test).
//
//   node bench/generate-session.mjs --entries 100000 --seed 42 --out /tmp/s-100k.jsonl
//   pnpm --filter @arbor/session-store build
//   node packages/session-store/scripts/measure-store.mjs /tmp/s-100k.jsonl [appends=1000] [piAppends=50]
//
// Each measurement runs in a fresh child process (clean heap, honest RSS). Measured:
// - open + projection of the leaf after load (Arbor cold: no sidecar index; Arbor warm: with one);
// - per-entry cost of "append a message, then refresh the projection" (pi: appendMessage +
//   buildSessionProjection, what AgentSession does after boundary commits);
// - resident memory after open + projection.
// pi is installed in PI_ORACLE_DIR (default <tmp>/pi-oracle); see make-goldens.mjs.
import { execFileSync } from "node:child_process";
import { copyFileSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";

const packageRoot = join(dirname(fileURLToPath(import.meta.url)), "..");
const piPackage = join(
  process.env.PI_ORACLE_DIR ?? join(tmpdir(), "pi-oracle"),
  "node_modules",
  "@earendil-works",
  "pi-coding-agent",
);
const [mode, file, countText] = process.argv.slice(2);

const user = (index) => ({ role: "user", content: `measurement message ${index}`, timestamp: Date.now() });
const rssMb = () => Math.round(process.memoryUsage().rss / 1e6);

async function child() {
  const count = Number(countText ?? 0);
  if (mode === "arbor-open" || mode === "arbor-append") {
    const { openSessionStore } = await import(pathToFileURL(join(packageRoot, "dist", "index.js")).href);
    const started = performance.now();
    const store = openSessionStore(file, { storage: { durability: "never", sidecarIndex: true } });
    const projection = store.getProjection();
    const openMs = performance.now() - started;
    const result = {
      openMs,
      rssMb: rssMb(),
      projected: projection.entries.length,
      messages: projection.messages.length,
    };
    if (mode === "arbor-append") {
      const appendStarted = performance.now();
      for (let index = 0; index < count; index++) {
        store.appendMessage(user(index));
        store.getProjection();
      }
      result.perAppendMs = (performance.now() - appendStarted) / count;
    }
    store.close();
    return result;
  }
  const { SessionManager } = await import(
    pathToFileURL(join(piPackage, "dist", "core", "session-manager.js")).href
  );
  const started = performance.now();
  const manager = SessionManager.open(file);
  const projection = manager.buildSessionProjection();
  const result = {
    openMs: performance.now() - started,
    rssMb: rssMb(),
    projected: projection.entries.length,
    messages: projection.messages.length,
  };
  if (mode === "pi-append") {
    const appendStarted = performance.now();
    for (let index = 0; index < count; index++) {
      manager.appendMessage(user(index));
      manager.buildSessionProjection();
    }
    result.perAppendMs = (performance.now() - appendStarted) / count;
  }
  return result;
}

function run(childMode, path, count = 0) {
  const output = execFileSync(
    process.execPath,
    ["--max-old-space-size=16000", fileURLToPath(import.meta.url), childMode, path, String(count)],
    {
      encoding: "utf8",
    },
  );
  return JSON.parse(output.trim().split("\n").pop());
}

if (["arbor-open", "arbor-append", "pi-open", "pi-append"].includes(mode)) {
  console.log(JSON.stringify(await child()));
} else {
  const source = process.argv[2];
  const appends = Number(process.argv[3] ?? 1000);
  const piAppends = Number(process.argv[4] ?? 50);
  const scratch = mkdtempSync(join(tmpdir(), "arbor-measure-"));
  try {
    const fresh = (name) => {
      const path = join(scratch, name);
      copyFileSync(source, path);
      return path;
    };
    const results = {};
    results.piOpen = run("pi-open", fresh("pi-open.jsonl"));
    results.arborColdOpen = run("arbor-open", fresh("arbor-cold.jsonl"));
    // The first open wrote the sidecar index on close: the second reuses it.
    const warm = fresh("arbor-warm.jsonl");
    run("arbor-open", warm);
    results.arborWarmOpen = run("arbor-open", warm);
    results.arborAppend = run("arbor-append", fresh("arbor-append.jsonl"), appends);
    results.piAppend = run("pi-append", fresh("pi-append.jsonl"), piAppends);
    console.log(JSON.stringify(results, null, 2));
    const ratio = (a, b) => (a / b).toFixed(1);
    console.log(
      `open + projection: pi ${results.piOpen.openMs.toFixed(0)} ms, Arbor cold ${results.arborColdOpen.openMs.toFixed(0)} ms (${ratio(results.piOpen.openMs, results.arborColdOpen.openMs)}x), warm ${results.arborWarmOpen.openMs.toFixed(0)} ms (${ratio(results.piOpen.openMs, results.arborWarmOpen.openMs)}x)`,
    );
    console.log(
      `RSS after open: pi ${results.piOpen.rssMb} MB, Arbor ${results.arborColdOpen.rssMb} MB (${ratio(results.piOpen.rssMb, results.arborColdOpen.rssMb)}x less)`,
    );
    console.log(
      `append + projection refresh: pi ${results.piAppend.perAppendMs.toFixed(3)} ms, Arbor ${results.arborAppend.perAppendMs.toFixed(4)} ms (${ratio(results.piAppend.perAppendMs, results.arborAppend.perAppendMs)}x)`,
    );
  } finally {
    rmSync(scratch, { recursive: true, force: true });
  }
}
