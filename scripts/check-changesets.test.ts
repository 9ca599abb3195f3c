import { execFileSync, spawnSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { afterEach, describe, expect, it } from "vitest";

const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const script = path.join(repoRoot, "scripts/check-changesets.mjs");
const changesetBin = path.join(repoRoot, "node_modules/@changesets/cli/bin.js");
const tempDirs: string[] = [];

afterEach(() => {
  for (const dir of tempDirs.splice(0)) fs.rmSync(dir, { recursive: true, force: true });
});

function write(dir: string, files: Record<string, string>): void {
  for (const [relative, content] of Object.entries(files)) {
    fs.mkdirSync(path.dirname(path.join(dir, relative)), { recursive: true });
    fs.writeFileSync(path.join(dir, relative), content);
  }
}

function git(dir: string, ...args: string[]): string {
  return execFileSync("git", args, { cwd: dir, encoding: "utf8" }).trim();
}

function commitAll(dir: string, message: string): void {
  git(dir, "add", "-A");
  git(dir, "-c", "user.name=t", "-c", "user.email=t@example.com", "commit", "-qm", message);
}

/** A small workspace laid out like the repository: one public library, one private app. */
function makeRepo(): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "arbor-changesets-"));
  tempDirs.push(dir);
  const config = JSON.parse(fs.readFileSync(path.join(repoRoot, ".changeset/config.json"), "utf8"));
  config.fixed = [["@t/lib"]];
  write(dir, {
    "package.json": JSON.stringify({ name: "root", private: true }),
    "pnpm-workspace.yaml": 'packages:\n  - "packages/*"\n  - "apps/*"\n',
    ".changeset/config.json": JSON.stringify(config),
    "packages/lib/package.json": JSON.stringify({ name: "@t/lib", version: "0.0.0" }),
    "packages/lib/src/index.ts": "export const a = 1;\n",
    "apps/app/package.json": JSON.stringify({ name: "@t/app", version: "0.1.0", private: true }),
    "apps/app/src/index.ts": "export const b = 1;\n",
  });
  git(dir, "init", "-qb", "main");
  commitAll(dir, "start");
  write(dir, { ".changeset/first-release-lib.md": '---\n"@t/lib": minor\n---\n\nFirst release.\n' });
  commitAll(dir, "first-release changeset");
  return dir;
}

function runScriptIn(dir: string): { code: number | null; output: string } {
  // The script resolves the repository from its own location: run a copy placed in the temp repo.
  fs.mkdirSync(path.join(dir, "scripts"), { recursive: true });
  fs.copyFileSync(script, path.join(dir, "scripts/check-changesets.mjs"));
  fs.mkdirSync(path.join(dir, "node_modules/@changesets"), { recursive: true });
  if (!fs.existsSync(path.join(dir, "node_modules/@changesets/cli"))) {
    fs.symlinkSync(path.dirname(changesetBin), path.join(dir, "node_modules/@changesets/cli"));
  }
  fs.writeFileSync(path.join(dir, ".gitignore"), "node_modules\nscripts\n");
  const run = spawnSync(process.execPath, [path.join(dir, "scripts/check-changesets.mjs")], {
    cwd: dir,
    env: { ...process.env, ARBOR_CHANGESET_BASE: "" },
    encoding: "utf8",
  });
  return { code: run.status, output: `${run.stdout}${run.stderr}` };
}

describe("check-changesets", { timeout: 120_000 }, () => {
  it("passes on a clean clone with no change since the first-release changesets", () => {
    const dir = makeRepo();
    const run = runScriptIn(dir);
    expect(run.output).toContain("comparing with the commit that added the first-release changesets");
    expect(run.code).toBe(0);
  });

  it("fails a change to a library's src/ without a changeset, and names the package", () => {
    const dir = makeRepo();
    write(dir, { "packages/lib/src/index.ts": "export const a = 2;\n" });
    commitAll(dir, "change lib");
    const run = runScriptIn(dir);
    expect(run.code).toBe(1);
    expect(run.output).toMatch(/changeset/i);
  });

  it("fails when the only changeset names another package", () => {
    const dir = makeRepo();
    write(dir, {
      "packages/other/package.json": JSON.stringify({ name: "@t/other", version: "0.0.0" }),
      "packages/other/src/index.ts": "export const c = 1;\n",
    });
    commitAll(dir, "add other");
    write(dir, {
      "packages/lib/src/index.ts": "export const a = 2;\n",
      ".changeset/other.md": '---\n"@t/other": patch\n---\n\nOther.\n',
    });
    commitAll(dir, "change lib, changeset for other");
    const run = runScriptIn(dir);
    expect(run.code).toBe(1);
    expect(run.output).toContain(
      "@t/lib: src/ changed without a changeset naming it (packages/lib/src/index.ts)",
    );
  });

  it("accepts a new changeset, an edited first-release changeset, or an explicit none", () => {
    for (const changeset of [
      { ".changeset/fix.md": '---\n"@t/lib": patch\n---\n\nFix.\n' },
      { ".changeset/first-release-lib.md": '---\n"@t/lib": minor\n---\n\nFirst release, with a fix.\n' },
      { ".changeset/refactor.md": '---\n"@t/lib": none\n---\n\nInternal.\n' },
    ]) {
      const dir = makeRepo();
      write(dir, { "packages/lib/src/index.ts": "export const a = 2;\n", ...changeset });
      commitAll(dir, "change lib with changeset");
      const run = runScriptIn(dir);
      expect(run.output).toContain("each named in a changeset");
      expect(run.code).toBe(0);
    }
  });

  it("ignores tests, private apps and files outside src/", () => {
    const dir = makeRepo();
    write(dir, {
      "packages/lib/src/index.test.ts": "it('x', () => {});\n",
      "packages/lib/README.md": "docs\n",
      "apps/app/src/index.ts": "export const b = 2;\n",
    });
    commitAll(dir, "tests and docs");
    expect(runScriptIn(dir).code).toBe(0);
  });

  it("compares with the last release tag once there is one", () => {
    const dir = makeRepo();
    write(dir, {
      "packages/lib/src/index.ts": "export const a = 2;\n",
      "packages/lib/CHANGELOG.md": "## 0.1.0\n",
    });
    fs.rmSync(path.join(dir, ".changeset/first-release-lib.md"));
    commitAll(dir, "release 0.1.0");
    git(dir, "tag", "@t/lib@0.1.0");
    let run = runScriptIn(dir);
    expect(run.output).toContain("the last release tag @t/lib@0.1.0");
    expect(run.code).toBe(0);
    write(dir, { "packages/lib/src/index.ts": "export const a = 3;\n" });
    commitAll(dir, "after the release");
    run = runScriptIn(dir);
    expect(run.code).toBe(1);
  });
});

describe("changeset version on the repository's pending changesets", { timeout: 60_000 }, () => {
  it("takes every library to 0.1.0 and leaves the private apps alone", () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "arbor-version-"));
    tempDirs.push(dir);
    const files: Record<string, string> = {
      "package.json": fs.readFileSync(path.join(repoRoot, "package.json"), "utf8"),
      "pnpm-workspace.yaml": fs.readFileSync(path.join(repoRoot, "pnpm-workspace.yaml"), "utf8"),
    };
    for (const entry of fs.readdirSync(path.join(repoRoot, ".changeset"))) {
      files[`.changeset/${entry}`] = fs.readFileSync(path.join(repoRoot, ".changeset", entry), "utf8");
    }
    for (const group of ["packages", "apps"]) {
      for (const name of fs.readdirSync(path.join(repoRoot, group))) {
        const manifest = path.join(repoRoot, group, name, "package.json");
        if (fs.existsSync(manifest))
          files[`${group}/${name}/package.json`] = fs.readFileSync(manifest, "utf8");
      }
    }
    write(dir, files);
    git(dir, "init", "-qb", "main");
    commitAll(dir, "copy");
    const run = spawnSync(process.execPath, [changesetBin, "version"], { cwd: dir, encoding: "utf8" });
    expect(run.status, `${run.stdout}${run.stderr}`).toBe(0);
    for (const name of fs.readdirSync(path.join(dir, "packages"))) {
      const manifest = JSON.parse(fs.readFileSync(path.join(dir, "packages", name, "package.json"), "utf8"));
      if (manifest.private) {
        // A private workspace package (test support) is never released: no version, no changelog.
        const before = JSON.parse(files[`packages/${name}/package.json`] ?? "{}");
        expect(manifest.version).toBe(before.version);
        expect(fs.existsSync(path.join(dir, "packages", name, "CHANGELOG.md"))).toBe(false);
        continue;
      }
      expect(`${manifest.name}@${manifest.version}`).toBe(`${manifest.name}@0.1.0`);
      const changelog = fs.readFileSync(path.join(dir, "packages", name, "CHANGELOG.md"), "utf8");
      expect(changelog).toContain("## 0.1.0");
      expect(changelog).toContain(`First release of \`${manifest.name}\``);
      expect(changelog).not.toMatch(/## 0\.[2-9]/);
    }
    for (const name of fs.readdirSync(path.join(dir, "apps"))) {
      const before = JSON.parse(files[`apps/${name}/package.json`] ?? "{}");
      const after = JSON.parse(fs.readFileSync(path.join(dir, "apps", name, "package.json"), "utf8"));
      expect(after.version).toBe(before.version);
      expect(fs.existsSync(path.join(dir, "apps", name, "CHANGELOG.md"))).toBe(false);
    }
  });
});
