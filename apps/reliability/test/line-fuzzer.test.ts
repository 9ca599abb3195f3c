import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { buildFuzzBase } from "../src/build-fuzz-base";
import { buildMutatedSession } from "../src/build-mutated-session";
import { checkMutatedSession, type MutatedSessionOutcome } from "../src/check-mutated-session";
import { recordFigures } from "../src/figures";

/**
 * A fuzzer over the session loader: valid sessions written by the store, with 1 to 3 lines damaged
 * in one of 17 ways, loaded in memory and (for a subset, raw bytes included) from real files.
 * Replay one case with `buildMutatedSession(buildFuzzBase(baseSeed), caseSeed)`.
 */
const SEED = 0x5eed_f000;
const BASE_SEEDS = [1, 2, 3, 4, 5, 6, 7, 8];
const MEMORY_CASES = 10_000;
const FILE_CASES = 1_000;

const root = mkdtempSync(join(tmpdir(), "arbor-fuzz-"));
afterAll(() => rmSync(root, { recursive: true, force: true }));
const bases = BASE_SEEDS.map((seed) => buildFuzzBase(seed));

interface Totals {
  cases: number;
  validEntriesChecked: number;
  problems: string[];
  kinds: Record<string, number>;
  typedErrors: Record<string, number>;
  issues: Record<string, number>;
}

/**
 * Typed errors thrown by the session store's reads for a corrupt line. There must be none: a line
 * found corrupt only when its entry is read is reported and left out, as one found at load is.
 */
function storeReadsThatThrewOnCorruptLines(totals: Totals): string[] {
  return Object.keys(totals.typedErrors).filter((key) =>
    /^(entries|tree|projection|branch|get-valid):SESSION_LINE_CORRUPT$/.test(key),
  );
}

function run(backend: "memory" | "file", cases: number, seedOffset: number): Totals {
  const totals: Totals = {
    cases: 0,
    validEntriesChecked: 0,
    problems: [],
    kinds: {},
    typedErrors: {},
    issues: {},
  };
  const count = (map: Record<string, number>, key: string) => {
    map[key] = (map[key] ?? 0) + 1;
  };
  for (let n = 0; n < cases; n++) {
    const baseIndex = n % bases.length;
    const seed = SEED + seedOffset + n;
    const fuzz = buildMutatedSession(bases[baseIndex] as string[], seed);
    const path = backend === "file" ? join(root, `case-${n}.jsonl`) : undefined;
    const outcome: MutatedSessionOutcome = checkMutatedSession(fuzz, backend, path);
    if (path) for (const suffix of ["", ".lock"]) rmSync(path + suffix, { force: true });
    totals.cases++;
    totals.validEntriesChecked += outcome.validEntriesChecked;
    for (const kind of fuzz.kinds) count(totals.kinds, kind);
    for (const code of outcome.typedErrors) count(totals.typedErrors, code);
    for (const code of outcome.issues) count(totals.issues, code);
    for (const problem of outcome.problems)
      totals.problems.push(
        `${backend} base ${BASE_SEEDS[baseIndex]} case seed ${seed} [${fuzz.kinds}]: ${problem}`,
      );
  }
  return totals;
}

describe("session line fuzzer", () => {
  const results: Record<string, Totals> = {};
  afterAll(() => {
    const memory = results.memory;
    const file = results.file;
    if (!memory || !file) return;
    recordFigures("line-fuzzer", {
      seed: SEED,
      cases: memory.cases + file.cases,
      memoryCases: memory.cases,
      fileCases: file.cases,
      validEntriesChecked: memory.validEntriesChecked + file.validEntriesChecked,
      validEntriesLost: 0,
      untypedErrors: 0,
      mutationKinds: memory.kinds,
      typedErrors: { memory: memory.typedErrors, file: file.typedErrors },
      issues: { memory: memory.issues, file: file.issues },
    });
  });

  it(`loads ${MEMORY_CASES} mutated sessions in memory: typed errors only, no valid entry lost`, () => {
    const totals = run("memory", MEMORY_CASES, 0);
    expect(totals.problems.slice(0, 20)).toEqual([]);
    expect(totals.cases).toBe(MEMORY_CASES);
    expect(Object.keys(totals.kinds)).toHaveLength(17);
    expect(totals.validEntriesChecked).toBeGreaterThan(MEMORY_CASES * 20);
    expect(storeReadsThatThrewOnCorruptLines(totals)).toEqual([]);
    results.memory = totals;
  });

  it(`loads ${FILE_CASES} mutated session files (raw bytes, torn tails): typed errors only, nothing lost`, () => {
    const totals = run("file", FILE_CASES, 1_000_000);
    expect(totals.problems.slice(0, 20)).toEqual([]);
    expect(totals.issues.SESSION_TAIL_TORN ?? 0).toBeGreaterThan(0);
    expect(storeReadsThatThrewOnCorruptLines(totals)).toEqual([]);
    results.file = totals;
  });
});
