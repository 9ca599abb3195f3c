#!/usr/bin/env node
/**
 * Fails when a public package's `src/` changed since the last release without a changeset that names
 * the package. Run by `.ci/run` as `pnpm check-changesets`.
 *
 * CI runs on a clean clone of main, where there is no base branch to diff against, so the base is
 * taken from the history itself:
 *   1. `$ARBOR_CHANGESET_BASE`, when set (any commit-ish);
 *   2. otherwise the newest release tag reachable from HEAD (`@scope/<name>@<version>`, as
 *      `changeset publish` creates them);
 *   3. otherwise, before the first release, the last commit that added a
 *      `.changeset/first-release-*.md` file (the first-release changesets describe everything up to it).
 * Changesets themselves are consumed at a release, so "changesets changed since the base" are the
 * pending ones. A changeset counts for a package when it was added or edited since the base and names
 * the package in its frontmatter (`"@arbor/x": patch|minor|major`, or `none` for a change to src/ that
 * no user can see).
 *
 * `changeset status --since=<base>` does the first check (no changeset at all) and reports the plan;
 * this script adds the per-package check. Needs the full git history (a shallow clone is deepened).
 */
import { execFileSync, spawnSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";

const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");

function git(args, cwd = repoRoot) {
  return execFileSync("git", args, { cwd, encoding: "utf8", stdio: ["ignore", "pipe", "pipe"] }).trim();
}

/** The commit to compare against, and how it was found. */
export function findChangesetBase(cwd = repoRoot, env = process.env) {
  if (env.ARBOR_CHANGESET_BASE) return { ref: env.ARBOR_CHANGESET_BASE, how: "$ARBOR_CHANGESET_BASE" };
  const tags = git(["tag", "--merged", "HEAD", "--sort=-creatordate"], cwd);
  const tag = tags.split("\n").find((name) => /^@[^/]+\/[^@]+@\d/.test(name));
  if (tag) return { ref: tag, how: `the last release tag ${tag}` };
  const added = git(
    ["log", "-1", "--diff-filter=A", "--format=%H", "--", ".changeset/first-release-*.md"],
    cwd,
  );
  if (added)
    return { ref: added, how: `the commit that added the first-release changesets (${added.slice(0, 12)})` };
  throw new Error(
    "check-changesets: no release tag and no first-release changeset in the history to compare with",
  );
}

/** Public packages (by folder under packages/) whose `src/` (tests, fixtures and goldens aside) changed since `base`. */
export function changedPackages(base, cwd = repoRoot) {
  const files = git(["diff", "--name-only", "--no-renames", base, "--", "packages"], cwd)
    .split("\n")
    .filter(Boolean);
  const untracked = git(["ls-files", "--others", "--exclude-standard", "--", "packages"], cwd).split("\n");
  const changed = new Map();
  for (const file of [...files, ...untracked.filter(Boolean)]) {
    const match = /^packages\/([^/]+)\/src\/(.+)$/.exec(file);
    if (!match) continue;
    const [, dir, rest] = match;
    if (/\.test\.ts$|(^|\/)__(fixtures|goldens|snapshots)__\/|^internal\/testing\//.test(rest)) continue;
    const manifestPath = path.join(cwd, "packages", dir, "package.json");
    if (!fs.existsSync(manifestPath)) continue;
    const manifest = JSON.parse(fs.readFileSync(manifestPath, "utf8"));
    if (manifest.private) continue;
    if (!changed.has(manifest.name)) changed.set(manifest.name, []);
    changed.get(manifest.name).push(file);
  }
  return changed;
}

/** Package names each changeset changed since `base` names, read from `changeset status --output`. */
export function namedInChangesets(base, cwd = repoRoot) {
  const out = path.join(fs.mkdtempSync(path.join(os.tmpdir(), "arbor-changesets-")), "plan.json");
  const bin = path.join(repoRoot, "node_modules/@changesets/cli/bin.js");
  const run = spawnSync(process.execPath, [bin, "status", `--since=${base}`, `--output=${out}`], {
    cwd,
    encoding: "utf8",
  });
  if (run.status !== 0) {
    return { ok: false, output: `${run.stdout}${run.stderr}`.trim() };
  }
  const plan = JSON.parse(fs.readFileSync(out, "utf8"));
  fs.rmSync(path.dirname(out), { recursive: true, force: true });
  const names = new Set();
  for (const changeset of plan.changesets) for (const release of changeset.releases) names.add(release.name);
  return { ok: true, names, changesets: plan.changesets.map((c) => c.id) };
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  if (git(["rev-parse", "--is-shallow-repository"]) === "true") git(["fetch", "--unshallow", "--tags"]);
  const base = findChangesetBase();
  console.log(`check-changesets: comparing with ${base.how}`);
  const changed = changedPackages(base.ref);
  const named = namedInChangesets(base.ref);
  if (!named.ok) {
    console.error(named.output);
    console.error("check-changesets: `changeset status` failed (above). Add a changeset: `pnpm changeset`.");
    process.exit(1);
  }
  const missing = [...changed.keys()].filter((name) => !named.names.has(name));
  if (missing.length > 0) {
    for (const name of missing) {
      console.error(
        `${name}: src/ changed without a changeset naming it (${changed.get(name).slice(0, 3).join(", ")})`,
      );
    }
    console.error(
      '\nAdd one with `pnpm changeset` (or write .changeset/<name>.md by hand: frontmatter "@arbor/<pkg>": patch, then a sentence for users).' +
        "\nBefore 0.1.0 is published you may instead add your sentence to .changeset/first-release-<pkg>.md." +
        '\nA change no user can see may use `"@arbor/<pkg>": none`.',
    );
    process.exit(1);
  }
  console.log(
    `check-changesets: ${changed.size} package(s) changed since the base, each named in a changeset (${named.changesets.length} pending)`,
  );
}
