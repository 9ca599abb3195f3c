import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { listSessions } from "./list-sessions";

let dir: string;
beforeEach(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), "arbor-sessions-"));
});
afterEach(() => fs.rmSync(dir, { recursive: true, force: true }));

function writeSession(name: string, lines: object[], mtimeSeconds: number): string {
  const file = path.join(dir, name);
  fs.writeFileSync(file, `${lines.map((line) => JSON.stringify(line)).join("\n")}\n`);
  fs.utimesSync(file, mtimeSeconds, mtimeSeconds);
  return file;
}

describe("listSessions", () => {
  it("lists valid sessions newest first with name and first message", () => {
    const header = (id: string) => ({ type: "session", version: 3, id, timestamp: "", cwd: "/p" });
    const user = {
      type: "message",
      id: "u1",
      parentId: null,
      message: { role: "user", content: "Fix\nthe   bug" },
    };
    writeSession("old.jsonl", [header("old"), user], 1_000);
    writeSession("new.jsonl", [header("new"), { type: "session_info", id: "i", name: "refactor" }], 2_000);
    writeSession("bad.jsonl", [{ type: "message" }], 3_000);
    fs.writeFileSync(path.join(dir, "notes.txt"), "x");
    const sessions = listSessions(dir);
    expect(sessions.map((s) => [s.id, s.name, s.firstMessage])).toEqual([
      ["new", "refactor", undefined],
      ["old", undefined, "Fix the bug"],
    ]);
  });

  it("returns an empty list for a missing folder", () => {
    expect(listSessions(path.join(dir, "nope"))).toEqual([]);
  });
});
