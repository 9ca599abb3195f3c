import fs from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";

/** Absolute path of the built CLI (`apps/cli/dist/main.cjs`). */
export const CLI_PATH = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../../dist/main.cjs");

/** The repository root. */
export const REPO_ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../../../..");

/** Throws a clear message when the CLI has not been built (E2E tests run the built CLI). */
export function assertCliBuilt(): void {
  if (!fs.existsSync(CLI_PATH)) {
    throw new Error(`${CLI_PATH} is missing: run \`pnpm --filter @arbor/cli build\` before the CLI tests`);
  }
}
