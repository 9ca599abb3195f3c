#!/usr/bin/env node
/**
 * pi 1.6.0 doing what one `arbor` offline command does, as a whole process (for the whole-process
 * section of `pnpm bench`): the process is started, loads pi's deep session and compaction modules,
 * does the work, writes its result to stdout and exits. Timed from outside, like `arbor`.
 *
 *   node bench/pi-command-worker.mjs <inspect|tree|check> <session.jsonl> [--json]
 *
 * - inspect: `SessionManager.open`, `buildSessionProjection()`, `estimateProjectedContextTokens`,
 *   `prepareCompaction(getBranch())` with keepRecentTokens 20000 (pi's default); prints the leaf, the
 *   message count, the estimate and the cut point as one JSON line (the bench compares it with
 *   `arbor inspect --json`).
 * - tree: `SessionManager.open` and `getTree()`; prints the number of nodes.
 * - check: `SessionManager.open` (pi's own open, which parses every line and checks nothing more);
 *   prints the number of entries.
 * pi's install folder is $PI_ORACLE_DIR (default /tmp/pi-oracle).
 */
import { pathToFileURL } from "node:url";

const [task, file] = process.argv.slice(2);
const dir = process.env.PI_ORACLE_DIR ?? "/tmp/pi-oracle";
const base = `${dir}/node_modules/@earendil-works/pi-coding-agent/dist/core`;
const { SessionManager } = await import(pathToFileURL(`${base}/session-manager.js`).href);
const sm = SessionManager.open(file);
if (task === "inspect") {
  const { estimateProjectedContextTokens, prepareCompaction } = await import(
    pathToFileURL(`${base}/compaction/index.js`).href
  );
  const projection = sm.buildSessionProjection();
  const branch = sm.getBranch();
  const estimate = estimateProjectedContextTokens(projection, branch);
  const preparation = prepareCompaction(branch, {
    enabled: true,
    reserveTokens: 0,
    keepRecentTokens: 20000,
  });
  process.stdout.write(
    `${JSON.stringify({
      leafId: sm.getLeafId?.() ?? branch.at(-1)?.id ?? null,
      messages: projection.messages.length,
      estimatedTokens: estimate.tokens,
      firstKeptEntryId: preparation?.firstKeptEntryId ?? null,
      isSplitTurn: preparation?.isSplitTurn ?? null,
      tokensBefore: preparation?.tokensBefore ?? null,
    })}\n`,
  );
} else if (task === "tree") {
  const roots = sm.getTree();
  let nodes = 0;
  const stack = [...roots];
  while (stack.length > 0) {
    const node = stack.pop();
    nodes++;
    for (const child of node.children) stack.push(child);
  }
  process.stdout.write(`${JSON.stringify({ nodes })}\n`);
} else if (task === "check") {
  process.stdout.write(`${JSON.stringify({ entries: sm.getEntries().length })}\n`);
} else {
  throw new Error(`unknown task ${task}`);
}
