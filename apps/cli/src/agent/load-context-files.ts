import fs from "node:fs";
import path from "node:path";
import { readCappedTextFile } from "./read-capped-text-file";

/** The most of one context file given to the model: 64 KiB (the rest is cut, and the model told). */
export const MAX_CONTEXT_FILE_BYTES = 64 * 1024;

/** One context file found for a working folder. */
export interface ContextFile {
  /** Absolute path. */
  path: string;
  /** The text (at most {@link MAX_CONTEXT_FILE_BYTES} of the file). */
  text: string;
  /** The file's size. */
  bytes: number;
  truncated: boolean;
  /** Bytes that were not UTF-8 were replaced with U+FFFD. */
  replacedInvalidUtf8: boolean;
}

/** Where {@link loadContextFiles} looks. */
export interface ContextFileLocations {
  cwd: string;
  arborHome: string;
  /** The user's home folder (where the walk up stops). */
  home: string | undefined;
  /** Called for a context file that exists but cannot be read (EACCES); it is left out. */
  onUnreadable?: (file: string, error: Error) => void;
}

function isRepositoryRoot(dir: string): boolean {
  return fs.existsSync(path.join(dir, ".git"));
}

/**
 * The folders whose context files count, outermost first: the working folder and its ancestors up
 * to the repository root (a folder with `.git`) or the home folder, whichever comes first (both
 * included); when neither is above the working folder, only the working folder.
 */
export function contextFolders(cwd: string, home: string | undefined): string[] {
  const start = path.resolve(cwd);
  const stop = home ? path.resolve(home) : undefined;
  const chain: string[] = [];
  for (let dir = start; ; dir = path.dirname(dir)) {
    chain.push(dir);
    if (dir === stop || isRepositoryRoot(dir)) return chain.reverse();
    if (path.dirname(dir) === dir) return [start];
  }
}

/**
 * Finds and reads the context files of a run in `cwd`, in the order they go into the system prompt:
 * 1. `$ARBOR_HOME/AGENTS.md` (the user's own instructions for every project);
 * 2. for each folder from the outermost (repository root or home) down to the working folder, its
 *    `AGENTS.md`, or its `CLAUDE.md` when it has no `AGENTS.md`.
 * The most specific file comes last. Only regular files are read (a FIFO or device named
 * `AGENTS.md` is skipped without blocking), each up to {@link MAX_CONTEXT_FILE_BYTES}. A file seen
 * twice (the home folder is `$ARBOR_HOME`'s parent, a symlink) is read once. Never writes.
 */
export function loadContextFiles(locations: ContextFileLocations): ContextFile[] {
  const candidates = [
    [path.join(locations.arborHome, "AGENTS.md")],
    ...contextFolders(locations.cwd, locations.home).map((dir) => [
      path.join(dir, "AGENTS.md"),
      path.join(dir, "CLAUDE.md"),
    ]),
  ];
  const seen = new Set<string>();
  const files: ContextFile[] = [];
  for (const names of candidates) {
    for (const file of names) {
      let real: string;
      try {
        real = fs.realpathSync(file);
      } catch {
        continue; // missing (or a dangling link): try the next name
      }
      if (seen.has(real)) break;
      let read: ReturnType<typeof readCappedTextFile>;
      try {
        read = readCappedTextFile(real, MAX_CONTEXT_FILE_BYTES);
      } catch (error) {
        locations.onUnreadable?.(file, error as Error);
        break;
      }
      if (read === undefined) continue;
      seen.add(real);
      files.push({ path: file, ...read });
      break;
    }
  }
  return files;
}
