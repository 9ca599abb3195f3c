import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { resolveSessionArgument } from "./resolve-session-argument";
import { resolveSessionsDir } from "./session-paths";

let dir: string;
let home: string;
let cwd: string;

function writeSession(folderCwd: string, id: string): string {
  const sessions = resolveSessionsDir(home, folderCwd);
  fs.mkdirSync(sessions, { recursive: true });
  const file = path.join(sessions, `2026-01-01T00-00-00-000Z_${id}.jsonl`);
  fs.writeFileSync(
    file,
    `${JSON.stringify({ type: "session", version: 3, id, timestamp: "2026-01-01T00:00:00.000Z", cwd: folderCwd })}\n`,
  );
  return file;
}

beforeEach(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), "arbor-resolve-"));
  home = path.join(dir, "home");
  cwd = path.join(dir, "project");
  fs.mkdirSync(cwd);
});
afterEach(() => fs.rmSync(dir, { recursive: true, force: true }));

describe("resolveSessionArgument", () => {
  it("finds a session by its short id, a prefix of it, or a prefix of the full id", () => {
    const a = writeSession(cwd, "019ce1a2-5f3b-7c41-9a2e-3d8f0b6c4e17");
    const b = writeSession(cwd, "019ce1a2-5f3c-7a10-8b11-77aa12cd9f03");
    const context = { arborHome: home, cwd, mayCreate: false };
    expect(resolveSessionArgument("0b6c4e17", context)).toBe(a);
    expect(resolveSessionArgument("0B6C", context)).toBe(a);
    expect(resolveSessionArgument("12cd9f03", context)).toBe(b);
    expect(resolveSessionArgument("019ce1a2-5f3c", context)).toBe(b);
    expect(() => resolveSessionArgument("019ce1a2", context)).toThrow(
      expect.objectContaining({ code: "CLI_USAGE", message: expect.stringContaining("matches 2 sessions") }),
    );
  });

  it("prefers this folder's session, then looks in every folder", () => {
    const here = writeSession(cwd, "aaaaaaaa-0000-7000-8000-00000000beef");
    const elsewhere = writeSession(path.join(dir, "other"), "bbbbbbbb-0000-7000-8000-11111111beef");
    const context = { arborHome: home, cwd, mayCreate: false };
    expect(resolveSessionArgument("0000", context)).toBe(here);
    expect(resolveSessionArgument("1111beef", context)).toBe(elsewhere);
    writeSession(path.join(dir, "other"), "cccccccc-0000-7000-8000-00000000beef");
    expect(resolveSessionArgument("0000beef", context)).toBe(here); // this folder's wins
  });

  it("keeps paths as written; an unmatched id is an error unless the file may be created", () => {
    writeSession(cwd, "aaaaaaaa-0000-7000-8000-00000000beef");
    fs.writeFileSync(path.join(cwd, "0000beef"), "");
    const context = { arborHome: home, cwd, mayCreate: false };
    expect(resolveSessionArgument("0000beef", context)).toBe("0000beef"); // an existing file wins
    expect(resolveSessionArgument("x/s.jsonl", context)).toBe("x/s.jsonl");
    expect(resolveSessionArgument("notes", context)).toBe("notes"); // not id-like
    expect(() => resolveSessionArgument("cafe1234", context)).toThrow(
      expect.objectContaining({
        code: "CLI_FILE_NOT_FOUND",
        message: expect.stringContaining("cafe1234: no such session file"),
      }),
    );
    expect(resolveSessionArgument("cafe1234", { ...context, mayCreate: true })).toBe("cafe1234");
  });
});
