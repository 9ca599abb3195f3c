import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { assertCliBuilt, REPO_ROOT } from "./helpers/cli-paths";
import { isolatedEnv, runCliProcess } from "./helpers/run-cli-process";

const EXAMPLE = path.join(REPO_ROOT, "examples/todo-api-pagination.jsonl");
let dir: string;
let env: NodeJS.ProcessEnv;

beforeAll(() => {
  assertCliBuilt();
  dir = fs.mkdtempSync(path.join(os.tmpdir(), "arbor-export-"));
  env = isolatedEnv({ ARBOR_HOME: path.join(dir, "home"), HOME: dir });
});
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

describe("arbor export", () => {
  it("writes the HTML page next to the working folder by default", async () => {
    const run = await runCliProcess(["export", EXAMPLE], { env, cwd: dir });
    expect(run.stderr).toBe("");
    expect(run.code).toBe(0);
    const file = path.join(dir, "todo-api-pagination.html");
    expect(run.stdout).toContain(`Exported 125 entries to ${file}`);
    const html = fs.readFileSync(file, "utf8");
    expect(html).toMatch(/^<!doctype html>/);
    expect(html).not.toMatch(/\b(?:src|href)=/);
  });

  it("writes the leaf's path as Markdown to stdout with --md -o -", async () => {
    const run = await runCliProcess(["export", EXAMPLE, "--md", "-o", "-", "--leaf", "e0195a14"], {
      env,
      cwd: dir,
    });
    expect(run.code).toBe(0);
    expect(run.stdout).toMatch(/^# todo-api: paginate GET \/todos\n/);
    expect(run.stdout).toContain("- Path: 69 of 125 entries, to the leaf `e0195a14`");
    expect(run.stdout).not.toContain("↩ Branch summary");
  });

  it("refuses an unknown leaf, both formats, and the session file as output, in one line each", async () => {
    const copy = path.join(dir, "copy.jsonl");
    fs.copyFileSync(EXAMPLE, copy);
    const before = fs.readFileSync(copy, "utf8");
    for (const [args, message] of [
      [["export", copy, "--leaf", "nope"], /--leaf nope: no entry with this id/],
      [["export", copy, "--html", "--md"], /either --html or --md/],
      [["export", copy, "-o", copy], /that is the session file itself/],
      [["export", copy, "--jsonl", "-o", copy], /that is the session file itself/],
      [["export", copy, "--jsonl", "--leaf", "x"], /--leaf does not apply/],
    ] as const) {
      const run = await runCliProcess(args, { env, cwd: dir });
      expect(run.code).toBe(2);
      expect(run.stderr).toMatch(message);
      expect(run.stderr.trimEnd().split("\n")).toHaveLength(1);
    }
    expect(fs.readFileSync(copy, "utf8")).toBe(before);
  });
});
