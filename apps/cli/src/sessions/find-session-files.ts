import fs from "node:fs";
import path from "node:path";
import { resolveSessionsDir } from "./session-paths";

/**
 * The session files (`*.jsonl`) under `<arborHome>/sessions/`: those of `cwd`'s folder only, or with
 * `all` those of every folder (the folder of `cwd` first, then the others by name). Missing folders
 * give nothing; nothing is read but the folder listings.
 */
export function findSessionFiles(arborHome: string, options: { cwd: string; all: boolean }): string[] {
  const own = resolveSessionsDir(arborHome, options.cwd);
  const list = (dir: string) => {
    try {
      return fs
        .readdirSync(dir)
        .filter((name) => name.endsWith(".jsonl"))
        .sort()
        .map((name) => path.join(dir, name));
    } catch {
      return [];
    }
  };
  if (!options.all) return list(own);
  const root = path.join(arborHome, "sessions");
  let folders: string[];
  try {
    folders = fs.readdirSync(root).sort();
  } catch {
    folders = [];
  }
  return [
    ...list(own),
    ...folders
      .map((name) => path.join(root, name))
      .filter((dir) => dir !== own)
      .flatMap(list),
  ];
}
