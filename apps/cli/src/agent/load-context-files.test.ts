import { execFileSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { contextFolders, loadContextFiles, MAX_CONTEXT_FILE_BYTES } from "./load-context-files";

let dir: string;
let home: string;
let arborHome: string;

beforeEach(() => {
  dir = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), "arbor-context-")));
  home = path.join(dir, "home");
  arborHome = path.join(home, ".arbor");
  fs.mkdirSync(arborHome, { recursive: true });
});
afterEach(() => fs.rmSync(dir, { recursive: true, force: true }));

function write(file: string, text: string): string {
  fs.mkdirSync(path.dirname(file), { recursive: true });
  fs.writeFileSync(file, text);
  return file;
}

describe("loadContextFiles", () => {
  it("loads $ARBOR_HOME/AGENTS.md, then AGENTS.md (else CLAUDE.md) from the repository root down to the working folder", () => {
    const repo = path.join(home, "src", "repo");
    const cwd = path.join(repo, "packages", "app");
    fs.mkdirSync(path.join(repo, ".git"), { recursive: true });
    fs.mkdirSync(cwd, { recursive: true });
    write(path.join(home, "src", "AGENTS.md"), "above the repository: not loaded");
    write(path.join(arborHome, "AGENTS.md"), "global");
    write(path.join(repo, "AGENTS.md"), "repo agents");
    write(path.join(repo, "CLAUDE.md"), "repo claude: not loaded, AGENTS.md exists");
    write(path.join(repo, "packages", "CLAUDE.md"), "packages claude");
    write(path.join(cwd, "AGENTS.md"), "app");
    const files = loadContextFiles({ cwd, arborHome, home });
    expect(files.map((file) => [path.relative(dir, file.path), file.text])).toEqual([
      ["home/.arbor/AGENTS.md", "global"],
      ["home/src/repo/AGENTS.md", "repo agents"],
      ["home/src/repo/packages/CLAUDE.md", "packages claude"],
      ["home/src/repo/packages/app/AGENTS.md", "app"],
    ]);
  });

  it("walks up to the home folder outside a repository, and only reads the working folder elsewhere", () => {
    const cwd = path.join(home, "notes", "today");
    fs.mkdirSync(cwd, { recursive: true });
    write(path.join(home, "AGENTS.md"), "home");
    expect(contextFolders(cwd, home)).toEqual([home, path.join(home, "notes"), cwd]);
    expect(loadContextFiles({ cwd, arborHome, home }).map((file) => file.text)).toEqual(["home"]);
    const outside = path.join(dir, "outside");
    fs.mkdirSync(outside);
    expect(contextFolders(outside, home)).toEqual([outside]);
  });

  it("treats the files as untrusted input: size cap, no FIFO, no file twice, invalid UTF-8 replaced", () => {
    const cwd = path.join(home, "p");
    fs.mkdirSync(path.join(cwd, ".git"), { recursive: true });
    write(path.join(cwd, "AGENTS.md"), `${"x".repeat(MAX_CONTEXT_FILE_BYTES - 1)}é and more`);
    const [big] = loadContextFiles({ cwd, arborHome, home });
    expect(big).toMatchObject({ truncated: true, bytes: MAX_CONTEXT_FILE_BYTES + 10 });
    expect(big?.text).toBe("x".repeat(MAX_CONTEXT_FILE_BYTES - 1)); // the cut é is dropped whole

    fs.rmSync(path.join(cwd, "AGENTS.md"));
    execFileSync("mkfifo", [path.join(cwd, "AGENTS.md")]);
    fs.writeFileSync(path.join(cwd, "CLAUDE.md"), Buffer.from([0x61, 0xff, 0x62]));
    const [claude] = loadContextFiles({ cwd, arborHome, home }); // returns: the FIFO is not opened
    expect(claude).toMatchObject({
      path: path.join(cwd, "CLAUDE.md"),
      text: "a\uFFFDb",
      replacedInvalidUtf8: true,
    });

    fs.symlinkSync(path.join(cwd, "CLAUDE.md"), path.join(arborHome, "AGENTS.md"));
    expect(loadContextFiles({ cwd, arborHome, home })).toHaveLength(1);
  });
});
