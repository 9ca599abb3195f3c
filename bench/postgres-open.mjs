#!/usr/bin/env node
/**
 * Opening a large session from PostgreSQL, measured in one run against the JSONL backend and pi
 * 1.6.0 reading the exported file (docs/benchmarks.md, "Sessions in PostgreSQL"). Each measurement
 * runs in a fresh process: open + projection of the leaf (Arbor PostgreSQL: one query for the light
 * records, then the lines the projection needs fetched through the asynchronous read seam; Arbor
 * JSONL: openSessionStore without a sidecar index; pi: SessionManager.open +
 * buildSessionProjection on the exported file). Wall time and the measuring process's CPU time
 * (user + system, every thread; the PostgreSQL server's own CPU is not in it) of open + projection.
 *
 *   pnpm --filter @arbor/session-store build
 *   node bench/postgres-open.mjs [ENTRIES=100000] [RUNS=3]
 *
 * Server: ARBOR_TEST_PG_URL (default postgresql://postgres@127.0.0.1:5432/test), a fresh schema,
 * dropped at the end. pi: $PI_ORACLE_DIR (default /tmp/pi-oracle; skipped when missing).
 */
import { execFileSync } from "node:child_process";
import { randomBytes } from "node:crypto";
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";

const URL_ = process.env.ARBOR_TEST_PG_URL ?? "postgresql://postgres@127.0.0.1:5432/test";
const piDir = process.env.PI_ORACLE_DIR ?? "/tmp/pi-oracle";
const dist = fileURLToPath(new URL("../packages/session-store/dist/", import.meta.url));
const [role, raw] = process.argv.slice(2);
// pg is a dev dependency of the session store, resolved from there.
const pg = createRequire(`${dist}index.js`)("pg");

function cpuMsSince(start) {
  const used = process.cpuUsage(start);
  return (used.user + used.system) / 1000;
}

if (role === "measure") {
  const args = JSON.parse(raw);
  const t0 = performance.now();
  let messages;
  if (args.impl === "pi") {
    const base = `${piDir}/node_modules/@earendil-works/pi-coding-agent/dist/core`;
    const { SessionManager } = await import(pathToFileURL(`${base}/session-manager.js`).href);
    const t = performance.now();
    const cpu = process.cpuUsage();
    const sm = SessionManager.open(args.file);
    messages = sm.buildSessionProjection().messages.length;
    console.log(
      JSON.stringify({
        ms: performance.now() - t,
        cpuMs: cpuMsSince(cpu),
        importMs: t - t0,
        messages,
        rssMb: process.memoryUsage().rss / 1e6,
      }),
    );
  } else if (args.impl === "jsonl") {
    const { openSessionStore } = await import(pathToFileURL(`${dist}index.js`).href);
    const t = performance.now();
    const cpu = process.cpuUsage();
    const store = openSessionStore(args.file, { storage: { readOnly: true } });
    messages = store.getProjection().messages.length;
    console.log(
      JSON.stringify({
        ms: performance.now() - t,
        cpuMs: cpuMsSince(cpu),
        messages,
        rssMb: process.memoryUsage().rss / 1e6,
      }),
    );
  } else {
    const { openPostgresSessionStore } = await import(pathToFileURL(`${dist}postgres/index.js`).href);
    const t = performance.now();
    const cpu = process.cpuUsage();
    const store = await openPostgresSessionStore(args.target, args.sessionId, { mode: "read" });
    const opened = performance.now();
    messages = store.getProjection().messages.length;
    const ms = performance.now() - t;
    const cpuMs = cpuMsSince(cpu);
    // Lines held in memory after open + projection: what the light-record open fetched.
    let heldLines = 0;
    for (let index = 0; index < store.getEntryCount(); index++)
      if (store.storage.hasEntry(index)) heldLines++;
    console.log(
      JSON.stringify({
        ms,
        cpuMs,
        heldLines,
        openMs: opened - t,
        messages,
        rssMb: process.memoryUsage().rss / 1e6,
      }),
    );
    store.close();
  }
  process.exit(0);
}

const entries = Number(process.argv[2] ?? 100_000);
const runs = Number(process.argv[3] ?? 3);
const dir = mkdtempSync(join(tmpdir(), "arbor-pg-open-"));
const schema = `bench_${randomBytes(4).toString("hex")}`;
const target = { connectionString: URL_, schema };
const self = fileURLToPath(import.meta.url);
const measure = (args) =>
  JSON.parse(
    execFileSync(process.execPath, [self, "measure", JSON.stringify(args)], {
      encoding: "utf8",
      maxBuffer: 1e8,
    }),
  );
const median = (values) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];
try {
  const { writeSessionFile } = await import("./generate-session.mjs");
  const file = join(dir, "session.jsonl");
  writeSessionFile(file, { entries, seed: 1 });
  const bytes = readFileSync(file).length;
  const { importPostgresSession, exportPostgresSession } = await import(
    pathToFileURL(`${dist}postgres/index.js`).href
  );
  const t = performance.now();
  const sessionId = await importPostgresSession(target, readFileSync(file, "utf8"));
  const importMs = performance.now() - t;
  const exported = join(dir, "exported.jsonl");
  writeFileSync(exported, await exportPostgresSession(target, sessionId));
  const same = readFileSync(exported).equals(readFileSync(file));
  const results = { postgres: [], jsonl: [], pi: [] };
  for (let run = 0; run < runs; run++) {
    results.postgres.push(measure({ impl: "postgres", target, sessionId }));
    results.jsonl.push(measure({ impl: "jsonl", file }));
    if (existsSync(piDir)) results.pi.push(measure({ impl: "pi", file: exported }));
  }
  const summary = Object.fromEntries(
    Object.entries(results)
      .filter(([, list]) => list.length > 0)
      .map(([impl, list]) => [
        impl,
        {
          openAndProjectMs: Math.round(median(list.map((r) => r.ms))),
          cpuMs: Math.round(median(list.map((r) => r.cpuMs))),
          ...(impl === "postgres"
            ? { openMs: Math.round(median(list.map((r) => r.openMs))), heldLines: list[0].heldLines }
            : {}),
          peakRssMb: Math.round(Math.max(...list.map((r) => r.rssMb))),
          messages: list[0].messages,
        },
      ]),
  );
  console.log(
    JSON.stringify(
      {
        entries,
        megabytes: +(bytes / 1e6).toFixed(1),
        runs,
        importSeconds: +(importMs / 1000).toFixed(1),
        exportIdentical: same,
        ...summary,
      },
      null,
      2,
    ),
  );
} finally {
  rmSync(dir, { recursive: true, force: true });
  const client = new pg.Client({ connectionString: URL_ });
  await client.connect();
  await client.query(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`);
  await client.end();
}
