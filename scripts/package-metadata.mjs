#!/usr/bin/env node
/**
 * Keeps what every published package must carry in line with one source: the repository URL in the
 * root package.json (`repository.url`, the only place it is written by hand) and the root LICENSE.
 *
 *   node scripts/package-metadata.mjs          check; exits 1 and lists what differs
 *   node scripts/package-metadata.mjs --write  rewrite the packages' fields and LICENSE copies
 *
 * For each public package under packages/: `repository` (with its `directory`), `homepage` (its
 * folder on the default branch), `bugs`, `license: "MIT"`, `files` that ship LICENSE, and a LICENSE
 * file identical to the root one (npm only packs a LICENSE from the package's own folder).
 */
import fs from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";

const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");

/** Reads the root manifest's repository URL and derives the web address, e.g. `https://host/org/repo`. */
export function repositoryInfo(root = repoRoot) {
  const manifest = JSON.parse(fs.readFileSync(path.join(root, "package.json"), "utf8"));
  const url = manifest.repository?.url;
  if (typeof url !== "string" || !/^git\+https:\/\/.+\.git$/.test(url)) {
    throw new Error(
      `package.json: repository.url must look like git+https://host/org/repo.git (found ${url})`,
    );
  }
  return { gitUrl: url, webUrl: url.slice("git+".length, -".git".length) };
}

/** The fields a public package at `packages/<dir>` must have, derived from {@link repositoryInfo}. */
export function expectedFields(dir, info) {
  return {
    license: "MIT",
    repository: { type: "git", url: info.gitUrl, directory: `packages/${dir}` },
    homepage: `${info.webUrl}/tree/main/packages/${dir}#readme`,
    bugs: { url: `${info.webUrl}/issues` },
  };
}

/** Lists every difference (or, with `write`, fixes it). Returns the problems found before fixing. */
export function syncPackageMetadata({ root = repoRoot, write = false } = {}) {
  const info = repositoryInfo(root);
  const license = fs.readFileSync(path.join(root, "LICENSE"), "utf8");
  const problems = [];
  for (const dir of fs.readdirSync(path.join(root, "packages")).sort()) {
    const manifestPath = path.join(root, "packages", dir, "package.json");
    if (!fs.existsSync(manifestPath)) continue;
    const text = fs.readFileSync(manifestPath, "utf8");
    const manifest = JSON.parse(text);
    if (manifest.private) continue;
    const where = `packages/${dir}/package.json`;
    for (const [key, value] of Object.entries(expectedFields(dir, info))) {
      if (JSON.stringify(manifest[key]) !== JSON.stringify(value)) {
        problems.push(`${where}: "${key}" should be ${JSON.stringify(value)}`);
        manifest[key] = value;
      }
    }
    if (!Array.isArray(manifest.files) || !manifest.files.includes("LICENSE")) {
      problems.push(`${where}: "files" should list LICENSE`);
      manifest.files = [...(manifest.files ?? []), "LICENSE"];
    }
    const licensePath = path.join(root, "packages", dir, "LICENSE");
    if (!fs.existsSync(licensePath) || fs.readFileSync(licensePath, "utf8") !== license) {
      problems.push(`packages/${dir}/LICENSE: should be a copy of the root LICENSE`);
      if (write) fs.writeFileSync(licensePath, license);
    }
    if (write) {
      const next = `${JSON.stringify(manifest, null, 2)}\n`;
      if (next !== text) fs.writeFileSync(manifestPath, next);
    }
  }
  return problems;
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const write = process.argv.includes("--write");
  const problems = syncPackageMetadata({ write });
  if (write) {
    console.log(
      problems.length === 0
        ? "package metadata: nothing to change"
        : `package metadata: fixed ${problems.length}`,
    );
  } else if (problems.length > 0) {
    console.error(problems.join("\n"));
    console.error("\nRun `pnpm metadata:write` (node scripts/package-metadata.mjs --write) to fix them.");
    process.exit(1);
  } else {
    console.log("package metadata: every public package matches the root package.json and LICENSE");
  }
}
