import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterEach, expect, it } from "vitest";
// @ts-expect-error: plain .mjs script without types
import { syncPackageMetadata } from "./package-metadata.mjs";

const tempDirs: string[] = [];
afterEach(() => {
  for (const dir of tempDirs.splice(0)) fs.rmSync(dir, { recursive: true, force: true });
});

function makeRepo(url: string): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "arbor-metadata-"));
  tempDirs.push(dir);
  fs.writeFileSync(path.join(dir, "package.json"), JSON.stringify({ repository: { type: "git", url } }));
  fs.writeFileSync(path.join(dir, "LICENSE"), "MIT License\n");
  for (const [name, manifest] of [
    ["lib", { name: "@t/lib", files: ["dist"] }],
    ["secret", { name: "@t/secret", private: true }],
  ] as const) {
    fs.mkdirSync(path.join(dir, "packages", name), { recursive: true });
    fs.writeFileSync(path.join(dir, "packages", name, "package.json"), JSON.stringify(manifest));
  }
  return dir;
}

it("derives repository, homepage and bugs from the root URL and copies LICENSE into public packages", () => {
  const dir = makeRepo("git+https://example.com/org/repo.git");
  const problems = syncPackageMetadata({ root: dir });
  expect(problems).toContain(
    'packages/lib/package.json: "homepage" should be "https://example.com/org/repo/tree/main/packages/lib#readme"',
  );
  expect(problems).toContain("packages/lib/LICENSE: should be a copy of the root LICENSE");
  expect(problems.some((p: string) => p.includes("secret"))).toBe(false);

  syncPackageMetadata({ root: dir, write: true });
  expect(syncPackageMetadata({ root: dir })).toEqual([]);
  const manifest = JSON.parse(fs.readFileSync(path.join(dir, "packages/lib/package.json"), "utf8"));
  expect(manifest).toMatchObject({
    license: "MIT",
    repository: { type: "git", url: "git+https://example.com/org/repo.git", directory: "packages/lib" },
    bugs: { url: "https://example.com/org/repo/issues" },
    files: ["dist", "LICENSE"],
  });
  expect(fs.readFileSync(path.join(dir, "packages/lib/LICENSE"), "utf8")).toBe("MIT License\n");
  expect(fs.existsSync(path.join(dir, "packages/secret/LICENSE"))).toBe(false);

  // Changing the one URL makes every package stale again.
  fs.writeFileSync(
    path.join(dir, "package.json"),
    JSON.stringify({ repository: { url: "git+https://example.com/new/repo.git" } }),
  );
  expect(syncPackageMetadata({ root: dir }).length).toBe(3);
});

it("rejects a root URL that is not a git+https URL", () => {
  expect(() => syncPackageMetadata({ root: makeRepo("https://example.com/org/repo") })).toThrow(
    /repository\.url/,
  );
});
