// The README's "main job": runs the built `arbor` CLI on real work that needs no API key. It shows
// the tree of the example session shipped in examples/, what the model sees and what the next
// compaction would cut, then compacts a temporary copy offline and inspects the result. The shipped
// example is never modified.
import { spawnSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const cli = path.join(root, "apps/cli/dist/main.cjs");
const example = path.join("examples", "todo-api-pagination.jsonl");
const workDir = fs.mkdtempSync(path.join(os.tmpdir(), "arbor-main-job-"));
const copy = path.join(workDir, "todo-api-pagination.jsonl");
// Keep the API keys out: the point is that everything below works offline.
const env = { ...process.env, ARBOR_HOME: path.join(workDir, "home") };
for (const key of Object.keys(env)) if (key.endsWith("_API_KEY")) delete env[key];

function run(args, { quiet = false } = {}) {
  const shown = args.map((arg) => (arg === copy ? "$TMP/todo-api-pagination.jsonl" : arg));
  console.log(`\n$ arbor ${shown.join(" ")}`);
  const result = spawnSync(process.execPath, [cli, ...args], {
    cwd: root,
    env,
    encoding: "utf8",
    stdio: quiet ? ["ignore", "pipe", "inherit"] : "inherit",
  });
  if (result.status !== 0) {
    console.error(`main job: arbor ${shown.join(" ")} exited with ${result.status}`);
    process.exit(result.status ?? 1);
  }
  return result.stdout;
}

try {
  run(["tree", example]);
  run(["inspect", example, "--keep-recent-tokens", "4000"]);
  fs.copyFileSync(path.join(root, example), copy);
  run(["compact", copy, "--offline", "--keep-recent-tokens", "4000"]);
  run(["inspect", copy]);
  const report = JSON.parse(run(["inspect", copy, "--json"], { quiet: true }));
  console.log(
    `(inspect --json: leaf ${report.leafId}, ${report.context.messages.length} model-visible messages, ~${report.context.estimatedTokens} tokens)`,
  );
  console.log("\nmain job: done (offline; the shipped example is unchanged).");
} finally {
  fs.rmSync(workDir, { recursive: true, force: true });
}
