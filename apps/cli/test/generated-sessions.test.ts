import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { estimateTokens, prepareCompaction } from "@arbor/compaction";
import { buildSessionPath, buildSessionProjection, type SessionEntry } from "@arbor/session-store";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { assertCliBuilt, REPO_ROOT } from "./helpers/cli-paths";
import { isolatedEnv, runCliProcess } from "./helpers/run-cli-process";
import { readJsonlLines, readLastJsonlLine } from "./helpers/session-files";

// The benchmark generator writes realistic pi-format v3 sessions: branches, branch summaries,
// compactions, context edits, images, labels, custom messages, bash executions.
const GENERATOR = path.join(REPO_ROOT, "bench/generate-session.mjs");

let dir: string;
let env: NodeJS.ProcessEnv;
let file: string;
let entries: SessionEntry[];

beforeAll(async () => {
  assertCliBuilt();
  dir = fs.mkdtempSync(path.join(os.tmpdir(), "arbor-generated-"));
  env = isolatedEnv({ ARBOR_HOME: path.join(dir, "home"), HOME: dir });
  file = path.join(dir, "generated.jsonl");
  const generator = await import(GENERATOR);
  generator.writeSessionFile(file, { entries: 4000, seed: 11 });
  entries = readJsonlLines(file).slice(1) as SessionEntry[];
});
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

async function inspect(...flags: string[]) {
  const run = await runCliProcess(["inspect", file, "--json", ...flags], { env, cwd: dir });
  expect(run.stderr).toBe("");
  expect(run.code).toBe(0);
  return JSON.parse(run.stdout);
}

/** Leaves to check: the file's leaf plus entries on other branches, spread over the file. */
function sampleLeaves(): string[] {
  const last = entries.at(-1)?.id as string;
  const onPath = new Set(buildSessionPath(entries, last).map((entry) => entry.id));
  const elsewhere = entries.filter((entry) => !onPath.has(entry.id));
  return [last, ...[0.2, 0.5, 0.8].map((at) => elsewhere[Math.floor(at * elsewhere.length)]?.id as string)];
}

describe("offline commands on a generated session", () => {
  it("the generated session has the features under test", () => {
    const types = new Set(entries.map((entry) => entry.type));
    for (const type of ["compaction", "branch_summary", "context_edit", "label", "custom_message"]) {
      expect(types, type).toContain(type);
    }
  });

  it("inspect lists exactly the pure projection's messages for several leaves", async () => {
    for (const leaf of sampleLeaves()) {
      const report = await inspect("--leaf", leaf);
      // The pure projection function is a separate implementation from the store's incremental one.
      const projection = buildSessionProjection(entries, leaf);
      const expected = projection.entries.flatMap(({ sourceEntry, messages }) =>
        messages.map((message) => ({
          entryId: sourceEntry.id,
          role: message.role,
          estimatedTokens: estimateTokens(message),
        })),
      );
      expect(report.leafId).toBe(leaf);
      expect(report.path).toEqual(buildSessionPath(entries, leaf).map((entry) => entry.id));
      expect(report.context.messages).toEqual(expected);
    }
  });

  it("inspect's compaction ranges tile the context up to the kept entry", async () => {
    const report = await inspect("--keep-recent-tokens", "3000");
    const compaction = report.compaction;
    expect(compaction).not.toBeNull();
    const ids = report.context.messages.map((message: { entryId: string }) => message.entryId);
    const keptAt = ids.indexOf(compaction.firstKeptEntryId);
    expect(keptAt).toBeGreaterThan(0);
    const before = report.context.messages
      .slice(0, keptAt)
      .filter(
        (message: { role: string }) => message.role !== "system" && message.role !== "compactionSummary",
      );
    expect([...compaction.messagesToSummarize, ...compaction.turnPrefixMessages]).toEqual(
      before.map(({ entryId, role }: { entryId: string; role: string }) => ({ entryId, role })),
    );
    expect(compaction.hasPreviousSummary).toBe(report.context.messages[1]?.role === "compactionSummary");
  });

  it("tree prints every entry once", async () => {
    const run = await runCliProcess(["tree", file], { env, cwd: dir });
    expect(run.code).toBe(0);
    const ids = run.stdout.match(/^[│ ├└─]*([0-9a-f]{8}) /gm) ?? [];
    expect(ids).toHaveLength(entries.length);
    expect(run.stdout).toMatch(/◆ compaction/);
    expect(run.stdout).toMatch(/↩ branch/);
  });

  it("compact --offline appends a compaction that becomes the projection's head", async () => {
    const copy = path.join(dir, "compact.jsonl");
    fs.copyFileSync(file, copy);
    const planned = (await inspect("--keep-recent-tokens", "3000")).compaction;
    const run = await runCliProcess(["compact", copy, "--offline", "--keep-recent-tokens", "3000"], {
      env,
      cwd: dir,
    });
    expect(run.code).toBe(0);
    const appended = readLastJsonlLine(copy);
    // compact reads the path from the latest compaction on; the preparation over the whole path,
    // by the pure functions, cuts at the same place.
    const whole = prepareCompaction(buildSessionPath(entries, entries.at(-1)?.id as string), {
      enabled: true,
      reserveTokens: 0,
      keepRecentTokens: 3000,
    });
    expect(whole?.firstKeptEntryId).toBe(appended.firstKeptEntryId);
    expect(whole?.tokensBefore).toBe(appended.tokensBefore);
    expect(appended).toMatchObject({
      type: "compaction",
      firstKeptEntryId: planned.firstKeptEntryId,
      tokensBefore: planned.tokensBefore,
      details: { readFiles: planned.readFiles, modifiedFiles: planned.modifiedFiles },
    });
    const after = JSON.parse((await runCliProcess(["inspect", copy, "--json"], { env, cwd: dir })).stdout);
    expect(after.context.messages[1]).toMatchObject({ entryId: appended.id, role: "compactionSummary" });
    expect(after.context.estimatedTokens).toBeLessThan(planned.tokensBefore);
  });
});
