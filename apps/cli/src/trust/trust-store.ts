import fs from "node:fs";
import path from "node:path";
import { CliError } from "../cli-error";
import { describeJsonError } from "../internal/describe-json-error";

/** A saved decision about a folder: its project configuration is loaded (`trusted`) or ignored. */
export type FolderTrust = "trusted" | "untrusted";

/** One saved decision: the folder (a canonical path) and what was decided. */
export interface SavedFolderTrust {
  /** The canonical (symlink-free, absolute) path the decision was saved for. */
  folder: string;
  trust: FolderTrust;
}

/** The file under `$ARBOR_HOME` that holds the decisions. */
export const TRUST_STORE_FILE = "trusted-folders.json";

interface TrustStoreFile {
  version: 1;
  folders: Record<string, { trust: FolderTrust; decidedAt: string }>;
}

/** `<arborHome>/trusted-folders.json`. */
export function trustStorePath(arborHome: string): string {
  return path.join(arborHome, TRUST_STORE_FILE);
}

function invalid(file: string, problem: string): CliError {
  return new CliError(
    "CLI_TRUST_STORE_INVALID",
    `${file}: ${problem}; fix or delete the file (it only holds the trust decisions made with arbor trust / untrust)`,
  );
}

function readStoreFile(file: string): TrustStoreFile {
  let text: string;
  try {
    text = fs.readFileSync(file, "utf8");
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT") return { version: 1, folders: {} };
    throw invalid(file, `cannot read (${(error as Error).message})`);
  }
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch (error) {
    throw invalid(file, `not valid JSON at ${describeJsonError(text, error)}`);
  }
  const folders = (parsed as { folders?: unknown } | null)?.folders;
  if (
    typeof parsed !== "object" ||
    parsed === null ||
    (parsed as { version?: unknown }).version !== 1 ||
    typeof folders !== "object" ||
    folders === null ||
    Array.isArray(folders)
  ) {
    throw invalid(file, 'expected { "version": 1, "folders": { … } }');
  }
  for (const [folder, entry] of Object.entries(folders)) {
    const trust = (entry as { trust?: unknown } | null)?.trust;
    if (!path.isAbsolute(folder) || (trust !== "trusted" && trust !== "untrusted")) {
      throw invalid(
        file,
        `folders[${JSON.stringify(folder)}]: expected an absolute path with "trust": "trusted" or "untrusted"`,
      );
    }
  }
  return parsed as TrustStoreFile;
}

/**
 * Every saved decision, in file order.
 * @throws CliError `CLI_TRUST_STORE_INVALID` naming the file when it exists but is not a valid store
 * (it is never overwritten in that case).
 */
export function listSavedTrust(arborHome: string): SavedFolderTrust[] {
  const store = readStoreFile(trustStorePath(arborHome));
  return Object.entries(store.folders).map(([folder, entry]) => ({ folder, trust: entry.trust }));
}

/**
 * The decision that applies to `folder` (a canonical path): the one saved for the folder itself or,
 * failing that, for its nearest ancestor. `undefined` when none was saved.
 * @throws CliError `CLI_TRUST_STORE_INVALID` like {@link listSavedTrust}.
 */
export function findSavedTrust(arborHome: string, folder: string): SavedFolderTrust | undefined {
  const store = readStoreFile(trustStorePath(arborHome));
  for (let current = folder; ; current = path.dirname(current)) {
    const entry = Object.hasOwn(store.folders, current) ? store.folders[current] : undefined;
    if (entry !== undefined) return { folder: current, trust: entry.trust };
    if (path.dirname(current) === current) return undefined;
  }
}

/**
 * Saves `trust` for `folder` (a canonical path), replacing an earlier decision for the same folder.
 * Creates `arborHome` (mode 0700) when missing. The file is replaced atomically (a temporary file
 * in the same folder, created with mode 0600, then renamed), so a crash leaves the old or the new
 * file, never half of one.
 * @throws CliError `CLI_TRUST_STORE_INVALID` when the existing file is not a valid store; file-system
 * errors as thrown.
 */
export function saveFolderTrust(arborHome: string, folder: string, trust: FolderTrust): void {
  const file = trustStorePath(arborHome);
  const store = readStoreFile(file);
  store.folders[folder] = { trust, decidedAt: new Date().toISOString() };
  fs.mkdirSync(arborHome, { recursive: true, mode: 0o700 });
  const temporary = `${file}.${process.pid}.${Date.now()}.tmp`;
  const fd = fs.openSync(temporary, "wx", 0o600);
  try {
    fs.writeSync(fd, `${JSON.stringify(store, null, 2)}\n`);
    fs.fsyncSync(fd);
  } finally {
    fs.closeSync(fd);
  }
  try {
    fs.renameSync(temporary, file);
  } catch (error) {
    fs.rmSync(temporary, { force: true });
    throw error;
  }
}
