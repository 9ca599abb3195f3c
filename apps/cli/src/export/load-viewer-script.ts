import fs from "node:fs";
import { fileURLToPath } from "node:url";

/**
 * The viewer script of HTML exports, built by tsup next to the CLI (`dist/viewer/export-viewer.js`).
 * Read on each call (exports are rare).
 *
 * @throws Error naming the file when it is missing (the CLI was not built completely).
 */
export function loadViewerScript(): string {
  const url = new URL("./viewer/export-viewer.js", import.meta.url);
  try {
    return fs.readFileSync(url, "utf8");
  } catch (error) {
    throw new Error(
      `the HTML viewer ${fileURLToPath(url)} is missing: build the CLI (pnpm build) (${(error as Error).message})`,
    );
  }
}
