import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { assertCliBuilt, REPO_ROOT } from "./helpers/cli-paths";
import { isolatedEnv, runCliProcess } from "./helpers/run-cli-process";
import { readJsonlLines } from "./helpers/session-files";

/**
 * `arbor check` (every line checked) and `arbor inspect`'s lazy reading (only what its report is
 * built from), on a session written by the benchmark generator, damaged on purpose.
 */
const GENERATOR = path.join(REPO_ROOT, "bench/generate-session.mjs");

let dir: string;
let env: NodeJS.ProcessEnv;
let clean: string;
let lines: string[];

interface Entry {
  type: string;
  id: string;
  parentId: string | null;
  firstKeptEntryId?: string;
  message?: { role: string; content?: unknown };
}

beforeAll(async () => {
  assertCliBuilt();
  dir = fs.mkdtempSync(path.join(os.tmpdir(), "arbor-check-"));
  env = isolatedEnv({ ARBOR_HOME: path.join(dir, "home"), HOME: dir });
  clean = path.join(dir, "clean.jsonl");
  const generator = await import(GENERATOR);
  generator.writeSessionFile(clean, { entries: 3000, seed: 7 });
  lines = fs.readFileSync(clean, "utf8").split("\n");
}, 60_000);
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

/** Line numbers (1-based) of the leaf's path, and where its latest compaction keeps from. */
function pathLines(): { onPath: number[]; keptFrom: number } {
  const entries = readJsonlLines(clean).slice(1) as Entry[];
  const lineOf = new Map(entries.map((entry, index) => [entry.id, index + 2]));
  const byId = new Map(entries.map((entry) => [entry.id, entry]));
  const onPath: number[] = [];
  let keptFrom = 0;
  for (let entry = entries.at(-1); entry; entry = entry.parentId ? byId.get(entry.parentId) : undefined) {
    onPath.unshift(lineOf.get(entry.id) as number);
    if (keptFrom === 0 && entry.type === "compaction" && entry.firstKeptEntryId)
      keptFrom = lineOf.get(entry.firstKeptEntryId) as number;
  }
  return { onPath, keptFrom };
}

/** A copy of the clean session with the user message on line `line` given `"content": 123`. */
function withInvalidContent(name: string, line: number): string {
  const copy = [...lines];
  const entry = JSON.parse(copy[line - 1] as string) as Entry;
  expect(entry.message?.role).toBe("user");
  (entry.message as { content: unknown }).content = 123;
  copy[line - 1] = JSON.stringify(entry);
  const file = path.join(dir, name);
  fs.writeFileSync(file, copy.join("\n"));
  return file;
}

/** The first line in `candidates` holding a user message. */
function firstUserLine(candidates: readonly number[]): number {
  const found = candidates.find(
    (line) => (JSON.parse(lines[line - 1] as string) as Entry).message?.role === "user",
  );
  if (found === undefined) throw new Error("no user message among the candidates");
  return found;
}

// Several CLI runs per test on a 3,000-entry session: generous under a loaded machine.
describe("arbor check", { timeout: 120_000 }, () => {
  it("passes a clean session: exit 0, every line counted", async () => {
    const run = await runCliProcess(["check", clean], { env, cwd: dir });
    expect(run.stderr).toBe("");
    expect(run.code).toBe(0);
    const count = lines.filter((line) => line.length > 0).length;
    expect(run.stdout).toBe(`${clean}: ok, ${count.toLocaleString("en-US")} lines checked, no problems\n`);
    const json = await runCliProcess(["check", clean, "--json"], { env, cwd: dir });
    expect(json.code).toBe(0);
    expect(JSON.parse(json.stdout)).toEqual({ file: clean, ok: true, linesChecked: count, problems: [] });
  });

  it("lists every problem by line, with its code, and exits 1", async () => {
    const copy = [...lines];
    const { onPath } = pathLines();
    const invalidAt = firstUserLine(onPath.slice(5));
    const entry = JSON.parse(copy[invalidAt - 1] as string) as Entry;
    (entry.message as { content: unknown }).content = 123;
    copy[invalidAt - 1] = JSON.stringify(entry);
    const corruptAt = invalidAt + 40;
    copy[corruptAt - 1] = (copy[corruptAt - 1] as string).slice(0, 30);
    const file = path.join(dir, "two-problems.jsonl");
    fs.writeFileSync(file, copy.join("\n"));
    // The cut line's id cannot be read, so its children have a parent no entry has: listed too, with
    // a hint at the damaged line (the invalid entry's children are not: its issue names it).
    const corrupted = JSON.parse(lines[corruptAt - 1] as string) as Entry;
    const orphans = lines
      .map((text, index) => ({ text, line: index + 1 }))
      .filter(
        ({ text, line }) =>
          line > 1 && text.length > 0 && (JSON.parse(text) as Entry).parentId === corrupted.id,
      );
    expect(orphans.length).toBeGreaterThan(0);
    const run = await runCliProcess(["check", file], { env, cwd: dir });
    expect(run.code).toBe(1);
    expect(run.stderr).toBe("");
    const out = run.stdout.trimEnd().split("\n");
    expect(out).toHaveLength(3 + orphans.length);
    expect(out[0]).toMatch(
      new RegExp(
        `^${file}:${invalidAt}: SESSION_ENTRY_INVALID: entry ${entry.id} is invalid \\(message entry: message\\.content: `,
      ),
    );
    expect(out[1]).toMatch(new RegExp(`^${file}:${corruptAt}: SESSION_LINE_CORRUPT: line is not valid JSON`));
    orphans.forEach(({ text, line }, k) => {
      const orphan = JSON.parse(text) as Entry;
      expect(out[2 + k]).toBe(
        `${file}:${line}: SESSION_PARENT_MISSING: entry ${orphan.id} names the parent ${corrupted.id}, which no entry of the session has: the entry is read as the root of a tree of its own (as pi reads it), cut off from what came before it. ${corrupted.id} may be the entry of a damaged line listed here.`,
      );
    });
    expect(out.at(-1)).toMatch(
      new RegExp(`^${file}: ${2 + orphans.length} problems in [\\d,]+ lines checked$`),
    );
    const json = await runCliProcess(["check", file, "--json"], { env, cwd: dir });
    expect(json.code).toBe(1);
    const report = JSON.parse(json.stdout);
    expect(report.ok).toBe(false);
    expect(report.problems.map((p: { line: number; code: string }) => [p.line, p.code])).toEqual([
      [invalidAt, "SESSION_ENTRY_INVALID"],
      [corruptAt, "SESSION_LINE_CORRUPT"],
      ...orphans.map(({ line }) => [line, "SESSION_PARENT_MISSING"]),
    ]);
    expect(report.problems[0].entryId).toBe(entry.id);
    // Read-only: the file is byte for byte what was written.
    expect(fs.readFileSync(file, "utf8")).toBe(copy.join("\n"));
  });

  it("lists an entry whose parent no entry has, or that is its own parent, and names a relative file as given", async () => {
    const copy = [...lines];
    const { onPath } = pathLines();
    const cutAt = onPath[Math.floor(onPath.length / 2)] as number;
    const cut = JSON.parse(copy[cutAt - 1] as string) as Entry;
    copy[cutAt - 1] = JSON.stringify({ ...cut, parentId: "0badf00d" });
    const selfAt = onPath[Math.floor(onPath.length / 4)] as number;
    const self = JSON.parse(copy[selfAt - 1] as string) as Entry;
    copy[selfAt - 1] = JSON.stringify({ ...self, parentId: self.id });
    fs.writeFileSync(path.join(dir, "cut.jsonl"), copy.join("\n"));
    // Relative to the working folder: every line starts with the name as given, once.
    const run = await runCliProcess(["check", "cut.jsonl"], { env, cwd: dir });
    expect(run.code).toBe(1);
    expect(run.stderr).toBe("");
    expect(run.stdout).toBe(
      [
        `cut.jsonl:${selfAt}: SESSION_PARENT_MISSING: entry ${self.id} names itself as its parent: it is read as the root of a tree of its own.`,
        `cut.jsonl:${cutAt}: SESSION_PARENT_MISSING: entry ${cut.id} names the parent 0badf00d, which no entry of the session has: the entry is read as the root of a tree of its own (as pi reads it), cut off from what came before it.`,
        `cut.jsonl: 2 problems in ${(copy.length - 1).toLocaleString("en-US")} lines checked`,
        "",
      ].join("\n"),
    );
    const json = JSON.parse(
      (await runCliProcess(["check", "cut.jsonl", "--json"], { env, cwd: dir })).stdout,
    );
    expect(json.problems.map((p: { entryId: string }) => p.entryId)).toEqual([self.id, cut.id]);
  });

  it("names a relative file once on a damaged line's problem", async () => {
    const copy = [...lines];
    copy[9] = "{not json";
    fs.writeFileSync(path.join(dir, "relative.jsonl"), copy.join("\n"));
    const run = await runCliProcess(["check", "relative.jsonl"], { env, cwd: dir });
    expect(run.stdout.split("\n")[0]).toMatch(
      /^relative\.jsonl:10: SESSION_LINE_CORRUPT: line is not valid JSON /,
    );
    expect(run.stdout).not.toContain(dir);
  });

  it("reports a file that is not a session as a problem at line 1, and a missing file as an error", async () => {
    const note = path.join(dir, "note.jsonl");
    fs.writeFileSync(note, "remember the milk\n");
    const run = await runCliProcess(["check", note, "--json"], { env, cwd: dir });
    expect(run.code).toBe(1);
    expect(JSON.parse(run.stdout).problems).toEqual([
      expect.objectContaining({ line: 1, code: "SESSION_HEADER_INVALID" }),
    ]);
    const missing = await runCliProcess(["check", path.join(dir, "nope.jsonl")], { env, cwd: dir });
    expect(missing.code).toBe(1);
    expect(missing.stdout).toBe("");
    expect(missing.stderr).toBe(`arbor: ${path.join(dir, "nope.jsonl")}: no such session file\n`);
  });
});

describe("arbor inspect reads lazily", { timeout: 120_000 }, () => {
  it("checks only what it reads, and says how much that was", async () => {
    const run = await runCliProcess(["inspect", clean, "--json"], { env, cwd: dir });
    expect(run.code).toBe(0);
    const { validation, path: ids } = JSON.parse(run.stdout);
    const { onPath, keptFrom } = pathLines();
    expect(keptFrom).toBeGreaterThan(0);
    expect(ids).toHaveLength(onPath.length);
    const linesInFile = lines.filter((line) => line.length > 0).length;
    expect(validation.linesInFile).toBe(linesInFile);
    // The header and the path from the kept range on (settings entries may add a few more).
    const contextLines = onPath.filter((line) => line >= keptFrom).length;
    expect(validation.linesValidated).toBeGreaterThanOrEqual(1 + contextLines);
    expect(validation.linesValidated).toBeLessThan(linesInFile / 2);
    const text = await runCliProcess(["inspect", clean], { env, cwd: dir });
    expect(text.stdout).toMatch(
      /\nChecked {3}[\d,]+ of [\d,]+ lines \(what this report reads; `arbor check` checks every line\)\n/,
    );
  });

  it("refuses a file whose damage lies in what it reads, naming the line", async () => {
    const { onPath, keptFrom } = pathLines();
    const line = firstUserLine(onPath.filter((at) => at > keptFrom));
    const file = withInvalidContent("damaged-context.jsonl", line);
    const run = await runCliProcess(["inspect", file, "--json"], { env, cwd: dir });
    expect(run.code).toBe(1);
    expect(run.stdout).toBe("");
    expect(run.stderr).toMatch(
      new RegExp(`^arbor: ${file}:${line}: entry \\w+ is invalid \\(message entry: message\\.content: `),
    );
  });

  it("does not read (nor report) damage before the kept range; arbor check finds it", async () => {
    const { onPath, keptFrom } = pathLines();
    const line = firstUserLine(onPath.filter((at) => at < keptFrom).slice(3));
    const file = withInvalidContent("damaged-history.jsonl", line);
    const run = await runCliProcess(["inspect", file, "--json"], { env, cwd: dir });
    expect(run.stderr).toBe("");
    expect(run.code).toBe(0);
    const cleanRun = await runCliProcess(["inspect", clean, "--json"], { env, cwd: dir });
    expect(JSON.parse(run.stdout)).toEqual(JSON.parse(cleanRun.stdout));
    const check = await runCliProcess(["check", file], { env, cwd: dir });
    expect(check.code).toBe(1);
    expect(check.stdout).toContain(`${file}:${line}: SESSION_ENTRY_INVALID: `);
  });
});
