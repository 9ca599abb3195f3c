// The README's "main job": runs the built CLI on real work that needs no API key.
import { spawnSync } from "node:child_process";
import path from "node:path";
import { fileURLToPath } from "node:url";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const cli = path.join(root, "apps/cli/dist/main.js");

function run(args) {
  console.log(`\n$ arbor ${args.join(" ")}`);
  const result = spawnSync(process.execPath, [cli, ...args], { stdio: "inherit", cwd: root });
  if (result.status !== 0) process.exit(result.status ?? 1);
}

run(["--help"]);
