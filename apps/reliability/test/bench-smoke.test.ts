import { spawnSync } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, describe, expect, it } from "vitest";

/**
 * The 1k smoke run of `pnpm bench` (bench/run.mjs): one repetition on a 1,000-entry session, into a
 * temp folder, never installing anything (`--no-install`). pi is measured when it is installed at
 * PI_ORACLE_DIR and marked unavailable otherwise; the second case forces the unavailable path.
 */
const ROOT = fileURLToPath(new URL("../../..", import.meta.url));
const dir = mkdtempSync(join(tmpdir(), "arbor-bench-smoke-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

interface Stat {
  median: number;
  min: number;
  max: number;
}
interface Row {
  metric: string;
  pi: Stat | null;
  arbor: Stat | null;
  ratio: number | null;
}
interface BenchJson {
  meta: { piAvailable: boolean; pageFaultUs?: number };
  realSessions?: { sessions: Array<{ name: string; runs: Record<string, Array<{ totalMs: number }>> }> };
  sizes: Array<{
    entries: number;
    rows: Row[];
    checks: string[];
    wholeProcess?: {
      checks: Array<{ command: string; same: boolean }>;
      runs: Record<string, Array<{ wallMs: number }>>;
    };
  }>;
  seams: { row: Row };
}

function runBench(out: string, piDir?: string): { json: BenchJson; markdown: string } {
  const result = spawnSync(
    process.execPath,
    [
      join(ROOT, "bench/run.mjs"),
      "--sizes",
      "1000",
      "--reps",
      "1",
      "--startup-reps",
      "1",
      "--out",
      out,
      "--no-install",
      "--seams-iterations",
      "200",
    ],
    {
      encoding: "utf8",
      env: {
        ...process.env,
        ARBOR_BENCH_DIR: join(dir, "sessions"),
        ...(piDir ? { PI_ORACLE_DIR: piDir } : {}),
      },
    },
  );
  expect(result.status, result.stderr).toBe(0);
  return {
    json: JSON.parse(readFileSync(join(out, "benchmarks.json"), "utf8")) as BenchJson,
    markdown: readFileSync(join(out, "benchmarks.md"), "utf8"),
  };
}

const finite = (s: Stat | null) => s !== null && [s.median, s.min, s.max].every(Number.isFinite);
/** The real pi sessions bench/real-sessions.mjs measures, when this machine has them. */
const hasRealSessions = [
  process.env.PI_SESSIONS,
  join(ROOT, "../shared/pi-sessions"),
  "/work/shared/pi-sessions",
].some((folder) => folder !== undefined && existsSync(folder));

// The run now includes the whole-process section (fresh CLI and pi processes): allow for a loaded machine.
describe("pnpm bench, 1k smoke run", { timeout: 600_000 }, () => {
  it("writes the table and the raw JSON with numbers for Arbor, and for pi when it is installed", () => {
    const { json, markdown } = runBench(join(dir, "default"));
    const [size] = json.sizes;
    expect(size?.entries).toBe(1000);
    expect(size?.rows.length).toBeGreaterThanOrEqual(12);
    for (const row of [...(size?.rows ?? []), json.seams.row])
      expect(finite(row.arbor), row.metric).toBe(true);
    expect(markdown).toContain("## 1,000 entries");
    expect(markdown).toContain("| metric | unit | pi 1.6.0 | Arbor | pi / Arbor |");
    // The machine's page-fault cost, which the ratios depend on, is measured and stated.
    expect(json.meta.pageFaultUs).toBeGreaterThan(0);
    expect(markdown).toMatch(/a minor page fault\) costs [\d.]+ µs on this machine/);
    if (hasRealSessions) {
      expect(json.realSessions?.sessions.length).toBeGreaterThan(0);
      for (const session of json.realSessions?.sessions ?? [])
        expect(session.runs.arbor?.[0]?.totalMs, session.name).toBeGreaterThan(0);
      expect(markdown).toContain("## Real pi sessions (library, cold");
    }
    if (json.meta.piAvailable) {
      const compared = [...(size?.rows ?? []), json.seams.row].filter(
        (row) => !row.metric.startsWith("exact"),
      );
      for (const row of compared) {
        expect(finite(row.pi), row.metric).toBe(true);
        expect(Number.isFinite(row.ratio), row.metric).toBe(true);
      }
      expect(size?.checks.join("\n")).toContain("returned the same cut point");
      expect(size?.checks.join("\n")).toMatch(/Token estimate: both returned/);
      // The whole-process section: arbor inspect/tree/check against pi, both agreeing.
      const whole = size?.wholeProcess;
      expect(whole?.checks.map((check) => [check.command, check.same])).toEqual([
        ["inspect", true],
        ["tree", true],
        ["check", true],
      ]);
      expect(whole?.runs["arbor.inspect"]?.[0]?.wallMs).toBeGreaterThan(0);
      expect(markdown).toContain("## Whole process: what a user waits for");
      expect(markdown).toMatch(/\| `arbor inspect FILE --json` \| wall \(ms\) \| [\d.]+ /);
      if (existsSync("/usr/bin/time"))
        expect(markdown).toMatch(
          /\| `arbor inspect FILE --json` \| minor page faults \(thousands\) \| [\d.]+ /,
        );
      if (hasRealSessions) {
        expect(markdown).not.toContain("projections differ");
        for (const session of json.realSessions?.sessions ?? [])
          expect(markdown).toContain(`- ${session.name}: both projected`);
      }
    } else {
      expect(markdown).toContain("pi was not available");
    }
  });

  it("marks pi as unavailable instead of installing it when it is missing", () => {
    const { json, markdown } = runBench(join(dir, "no-pi"), join(dir, "no-pi-here"));
    expect(json.meta.piAvailable).toBe(false);
    expect(json.sizes[0]?.rows.every((row) => row.pi === null && row.ratio === null)).toBe(true);
    expect(finite(json.sizes[0]?.rows[0]?.arbor ?? null)).toBe(true);
    expect(markdown).toContain("pi was not available");
  });

  it("prints its usage for --help and refuses an unknown option before any work starts", () => {
    const out = join(dir, "never-written");
    const help = spawnSync(process.execPath, [join(ROOT, "bench/run.mjs"), "--help", "--out", out], {
      encoding: "utf8",
    });
    expect(help.status).toBe(0);
    expect(help.stdout).toContain("Options: --sizes a,b,c");
    expect(help.stdout).not.toContain("/**");
    const typo = spawnSync(process.execPath, [join(ROOT, "bench/run.mjs"), "--size", "1000", "--out", out], {
      encoding: "utf8",
    });
    expect(typo.status).toBe(2);
    expect(typo.stderr).toContain("unknown option --size");
    const missing = spawnSync(process.execPath, [join(ROOT, "bench/run.mjs"), "--out"], { encoding: "utf8" });
    expect(missing.status).toBe(2);
    expect(missing.stderr).toContain("--out needs a value");
    expect(existsSync(out)).toBe(false);
  });
});
