import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { DurabilityMode } from "@arbor/session-store";
import { afterAll, describe, expect, it } from "vitest";
import { recordFigures } from "../src/figures";
import { createSeededRandom, type SeededRandom } from "../src/seeded-random";
import { spawnWorker } from "../src/spawn-worker";
import { readAcks, verifyStormSession } from "../src/verify-storm-session";

/**
 * SIGKILL during an append storm. Each chain is one session file; each trial starts a fresh writer
 * process on it, kills it with SIGKILL (from outside at a random time, or from inside at a random
 * byte of a random write), reopens the file in this process and checks every promise of the
 * storage README, then appends a marker before the next writer continues the same session.
 */
const SEED = 0x5eed_0008;
const CHAINS = 10;
const KILLS_PER_CHAIN = 12;
const PARALLEL_CHAINS = 2;
const MODES: readonly DurabilityMode[] = ["never", "batched", "always"];

interface ChainFigures {
  kills: number;
  externalKills: number;
  selfKills: number;
  acked: number;
  lost: number;
  quarantined: number;
  repaired: number;
  stormEntries: number;
  problems: string[];
}

const root = mkdtempSync(join(tmpdir(), "arbor-sigkill-"));
afterAll(() => rmSync(root, { recursive: true, force: true }));

async function killOnce(
  file: string,
  ackFile: string,
  durability: DurabilityMode,
  startSeq: number,
  rng: SeededRandom,
): Promise<"external" | "self"> {
  const self = rng.chance(0.5);
  const args = {
    file,
    ackFile,
    durability,
    startSeq,
    maxAppends: 3000,
    // A write near the start of the storm (the header counts when the file is new), cut at a random byte.
    ...(self ? { selfKill: { write: rng.between(1, 40), fraction: rng.next() } } : {}),
  };
  const delayMs = rng.between(0, 20);
  const { exit } = spawnWorker("append-storm.mjs", args, {
    onLine: (line, child) => {
      if (line === "ready" && !self) setTimeout(() => child.kill("SIGKILL"), delayMs);
    },
  });
  const ended = await exit;
  if (ended.signal !== "SIGKILL") {
    throw new Error(`storm writer ended with ${ended.code ?? ended.signal}: ${ended.stderr}`);
  }
  return self ? "self" : "external";
}

async function runChain(chain: number): Promise<ChainFigures> {
  const rng = createSeededRandom(SEED + chain);
  const durability = MODES[chain % MODES.length] as DurabilityMode;
  const file = join(root, `chain-${chain}.jsonl`);
  const ackFile = join(root, `chain-${chain}.acks`);
  const acked = new Map<number, string>();
  const resumeIds = new Set<string>();
  const figures: ChainFigures = {
    kills: 0,
    externalKills: 0,
    selfKills: 0,
    acked: 0,
    lost: 0,
    quarantined: 0,
    repaired: 0,
    stormEntries: 0,
    problems: [],
  };
  let nextSeq = 0;
  for (let trial = 0; trial < KILLS_PER_CHAIN; trial++) {
    const how = await killOnce(file, ackFile, durability, nextSeq, rng);
    figures.kills++;
    if (how === "self") figures.selfKills++;
    else figures.externalKills++;
    readAcks(ackFile, acked);
    const check = verifyStormSession(file, { durability, acked, resumeIds });
    figures.problems.push(
      ...check.problems.map(
        (p) => `chain ${chain} (seed ${SEED + chain}, ${durability}) kill ${trial}: ${p}`,
      ),
    );
    figures.lost += check.lost;
    if (check.quarantined) figures.quarantined++;
    if (check.repaired) figures.repaired++;
    figures.stormEntries = check.stormEntries;
    if (check.resumeId) resumeIds.add(check.resumeId);
    nextSeq = Math.max(nextSeq, check.maxSeq + 1);
  }
  figures.acked = acked.size;
  return figures;
}

describe("SIGKILL during an append storm", () => {
  it(`keeps every returned append through ${CHAINS * KILLS_PER_CHAIN} kills, quarantines torn lines and resumes`, async () => {
    const results: ChainFigures[] = [];
    const queue = Array.from({ length: CHAINS }, (_, i) => i);
    await Promise.all(
      Array.from({ length: PARALLEL_CHAINS }, async () => {
        for (let chain = queue.shift(); chain !== undefined; chain = queue.shift()) {
          results.push(await runChain(chain));
        }
      }),
    );
    const sum = (key: keyof Omit<ChainFigures, "problems">) => results.reduce((n, r) => n + r[key], 0);
    const problems = results.flatMap((r) => r.problems);
    recordFigures("sigkill-storm", {
      seed: SEED,
      chains: CHAINS,
      kills: sum("kills"),
      externalKills: sum("externalKills"),
      selfKillsInsideWrite: sum("selfKills"),
      acknowledgedAppends: sum("acked"),
      stormEntriesOnDisk: sum("stormEntries"),
      tornTailsQuarantined: sum("quarantined"),
      completeTailsRepaired: sum("repaired"),
      acknowledgedEntriesLost: sum("lost"),
      durabilityModes: MODES,
    });
    expect(problems).toEqual([]);
    expect(sum("kills")).toBeGreaterThanOrEqual(100);
    expect(sum("lost")).toBe(0);
    // The self-kills cut a line on purpose: torn tails must have been seen and quarantined.
    expect(sum("quarantined")).toBeGreaterThan(0);
    expect(sum("acked")).toBeGreaterThan(sum("kills"));
  });
});
