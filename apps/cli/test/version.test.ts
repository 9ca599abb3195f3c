import fs from "node:fs";
import path from "node:path";
import { expect, it } from "vitest";
import { assertCliBuilt, REPO_ROOT } from "./helpers/cli-paths";
import { isolatedEnv, runCliProcess } from "./helpers/run-cli-process";

it("--version prints the version in the CLI's package.json (set when the CLI is built)", async () => {
  assertCliBuilt();
  const manifest = JSON.parse(fs.readFileSync(path.join(REPO_ROOT, "apps/cli/package.json"), "utf8"));
  const run = await runCliProcess(["--version"], { env: isolatedEnv({}), cwd: REPO_ROOT });
  expect(run.stderr).toBe("");
  expect(run.code).toBe(0);
  expect(run.stdout).toBe(`${manifest.version}\n`);
});
