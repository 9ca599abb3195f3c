import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { cliDatabase, testPostgres } from "@arbor/test-postgres";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { assertCliBuilt, REPO_ROOT } from "./helpers/cli-paths";
import { isolatedEnv, runCliProcess } from "./helpers/run-cli-process";

/**
 * Sessions in PostgreSQL through the built CLI: `arbor import --to`, then inspect, tree, export and
 * sessions --store on the printed location, against the same commands on the file.
 */
const EXAMPLE = path.join(REPO_ROOT, "examples/todo-api-pagination.jsonl");
const db = await testPostgres();
const problem = db.skipReason();
const database = cliDatabase(db, "cli");
let dir: string;
let env: NodeJS.ProcessEnv;
let location: string;

async function cli(...args: string[]) {
  return runCliProcess(args, { env, cwd: dir });
}

describe.skipIf(problem !== undefined)(`database sessions${problem ? ` (skipped: ${problem})` : ""}`, () => {
  beforeAll(async () => {
    assertCliBuilt();
    dir = fs.mkdtempSync(path.join(os.tmpdir(), "arbor-database-"));
    env = isolatedEnv({ ARBOR_HOME: path.join(dir, "home"), HOME: dir, ...database.env });
    const run = await cli("import", EXAMPLE, "--to", database.url);
    expect(run.stderr).toBe("");
    expect(run.code).toBe(0);
    location = run.stdout.trim();
  }, 60_000);
  afterAll(async () => {
    fs.rmSync(dir, { recursive: true, force: true });
    await database.drop();
  });

  it("import prints the new location: the URL given with the session id as fragment", () => {
    expect(location).toBe(`${database.url}#019ce1a2-5f3b-7c41-9a2e-3d8f0b6c4e17`);
  });

  it("inspect --json of the location equals inspect --json of the file (projection, tokens, compaction)", async () => {
    const [fromDatabase, fromFile] = await Promise.all([
      cli("inspect", location, "--json", "--full"),
      cli("inspect", EXAMPLE, "--json", "--full"),
    ]);
    expect(fromDatabase.stderr).toBe("");
    expect(JSON.parse(fromDatabase.stdout)).toEqual(JSON.parse(fromFile.stdout));
    const leaf = JSON.parse(fromFile.stdout).path[40];
    const [atLeaf, fileAtLeaf] = await Promise.all([
      cli("inspect", location, "--json", "--leaf", leaf, "--keep-recent-tokens", "2000"),
      cli("inspect", EXAMPLE, "--json", "--leaf", leaf, "--keep-recent-tokens", "2000"),
    ]);
    expect(JSON.parse(atLeaf.stdout).compaction).not.toBeNull();
    expect(JSON.parse(atLeaf.stdout)).toEqual(JSON.parse(fileAtLeaf.stdout));
  });

  it("tree of the location prints the file's tree", async () => {
    const [fromDatabase, fromFile] = await Promise.all([cli("tree", location), cli("tree", EXAMPLE)]);
    expect(fromDatabase.code).toBe(0);
    expect(fromDatabase.stdout).toBe(fromFile.stdout);
  });

  it("export --jsonl gives the exact bytes back, to a file only", async () => {
    const run = await cli("export", location, "--jsonl", "-o", "back.jsonl");
    expect(run.stderr).toBe("");
    expect(run.stdout).toMatch(/^Exported 126 lines to .*back\.jsonl/);
    expect(fs.readFileSync(path.join(dir, "back.jsonl")).equals(fs.readFileSync(EXAMPLE))).toBe(true);
    const piped = await cli("export", location, "--jsonl", "-o", "-");
    expect(piped.code).toBe(2);
    expect(piped.stderr).toMatch(/exact bytes/);
    const fromFile = await cli("export", EXAMPLE, "--jsonl", "-o", "copy.jsonl");
    expect(fromFile.code).toBe(0);
    expect(fs.readFileSync(path.join(dir, "copy.jsonl")).equals(fs.readFileSync(EXAMPLE))).toBe(true);
    const usage = await cli("export", location, "--jsonl", "--md");
    expect(usage.code).toBe(2);
  });

  it("sessions --store lists the database's sessions with their locations", async () => {
    const run = await cli("sessions", "--store", database.url, "--json");
    expect(run.stderr).toBe("");
    const { sessions } = JSON.parse(run.stdout);
    expect(sessions).toEqual([
      expect.objectContaining({
        location,
        name: "todo-api: paginate GET /todos",
        cwd: "/home/dev/projects/todo-api",
        entries: 125,
      }),
    ]);
    const table = await cli("sessions", "--store", database.url);
    expect(table.stdout).toContain(location);
  });

  it("check of the location reports what check of the file reports; a damaged session names its lines", async () => {
    const [fromDatabase, fromFile] = await Promise.all([
      cli("check", location, "--json"),
      cli("check", EXAMPLE, "--json"),
    ]);
    expect(fromDatabase.stderr).toBe("");
    expect(fromDatabase.code).toBe(0);
    expect(JSON.parse(fromDatabase.stdout)).toEqual({ ...JSON.parse(fromFile.stdout), file: location });
    const text = await cli("check", location);
    expect(text.stdout).toBe(`${location}: ok, 126 lines checked, no problems\n`);
    // A session with a line that is not JSON and an entry of a known type without its fields.
    const lines = fs.readFileSync(EXAMPLE, "utf8").split("\n");
    lines[0] = lines[0]?.replace(/"id":"[^"]+"/, '"id":"damaged-session"') as string;
    lines[5] = "{not json";
    lines[7] = lines[7]?.replace(/"message":\{/, '"message":5,"was":{') as string;
    fs.writeFileSync(path.join(dir, "damaged.jsonl"), lines.join("\n"));
    const imported = await cli("import", "damaged.jsonl", "--to", database.url);
    expect(imported.code).toBe(0);
    const damaged = imported.stdout.trim();
    const [checked, fileChecked] = await Promise.all([
      cli("check", damaged),
      cli("check", path.join(dir, "damaged.jsonl")),
    ]);
    expect(checked.code).toBe(1);
    expect(checked.stdout).toBe(fileChecked.stdout.replaceAll(path.join(dir, "damaged.jsonl"), damaged));
    expect(checked.stdout).toContain(`${damaged}:6: SESSION_LINE_CORRUPT`);
    expect(checked.stdout).toContain(`${damaged}:8: SESSION_ENTRY_INVALID`);
  });

  it("refuses an id that is taken, a missing session and a location without an id, in one line", async () => {
    const taken = await cli("import", EXAMPLE, "--to", database.url);
    expect(taken.code).toBe(1);
    expect(taken.stderr).toMatch(/^arbor: .*already exists: nothing was imported/);
    const missing = await cli("inspect", `${database.url}#no-such-session`);
    expect(missing.code).toBe(1);
    expect(missing.stderr).toMatch(/^arbor: .*#no-such-session: no such session\.\n$/);
    const noId = await cli("tree", database.url);
    expect(noId.code).toBe(2);
    expect(noId.stderr).toMatch(/no session id/);
  });
});
