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
