import path from "node:path";

/**
 * Turns a working folder into the name of its sessions folder, the way pi does: the leading separator
 * is dropped, `/`, `\` and `:` become `-`, and the result is wrapped in `--…--`
 * (`/home/ada/proj` → `--home-ada-proj--`).
 */
export function slugifyCwd(cwd: string): string {
  return `--${path
    .resolve(cwd)
    .replace(/^[/\\]/, "")
    .replace(/[/\\:]/g, "-")}--`;
}

/** The folder holding the sessions of `cwd`: `<arborHome>/sessions/<slug of cwd>/`. */
export function resolveSessionsDir(arborHome: string, cwd: string): string {
  return path.join(arborHome, "sessions", slugifyCwd(cwd));
}

/**
 * The cache folder of session indexes: `<arborHome>/cache/session-index/`. Every session the CLI
 * opens keeps its sidecar index there, never beside the session file (a read-only command writes a
 * session's index from its second open on: the first leaves a marker, so a one-off look costs nothing);
 * the folder may be deleted at any time (the next open of a session rescans it and writes it again).
 */
export function resolveSessionIndexDir(arborHome: string): string {
  return path.join(arborHome, "cache", "session-index");
}
