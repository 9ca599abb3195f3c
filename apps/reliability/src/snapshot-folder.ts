import { createHash } from "node:crypto";
import { lstatSync, readdirSync, readFileSync, readlinkSync } from "node:fs";
import { join, relative } from "node:path";

/** Every entry under a folder, by path relative to it: a SHA-256 of the content, or the kind. */
export type FolderSnapshot = ReadonlyMap<string, string>;

/**
 * Hashes every file under `dir` (recursively; folders and symlinks recorded by kind and target), so
 * that a command promising to be read-only can be checked with {@link diffFolderSnapshots}.
 */
export function snapshotFolder(dir: string): FolderSnapshot {
  const found = new Map<string, string>();
  const walk = (folder: string) => {
    for (const name of readdirSync(folder).sort()) {
      const path = join(folder, name);
      const key = relative(dir, path);
      const stat = lstatSync(path);
      if (stat.isDirectory()) {
        found.set(key, "folder");
        walk(path);
      } else if (stat.isSymbolicLink()) {
        found.set(key, `symlink -> ${readlinkSync(path)}`);
      } else if (stat.isFile()) {
        found.set(key, createHash("sha256").update(readFileSync(path)).digest("hex"));
      } else {
        found.set(key, "special");
      }
    }
  };
  walk(dir);
  return found;
}

/** The paths created, changed or removed between two snapshots of the same folder, sorted. */
export function diffFolderSnapshots(before: FolderSnapshot, after: FolderSnapshot): string[] {
  const changed = new Set<string>();
  for (const [path, hash] of before) if (after.get(path) !== hash) changed.add(path);
  for (const path of after.keys()) if (!before.has(path)) changed.add(path);
  return [...changed].sort();
}
