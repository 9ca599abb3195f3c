import type { ChildProcess } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { openSessionStore, SessionStorageError } from "@arbor/session-store";
import { afterAll, describe, expect, it } from "vitest";
import { recordFigures } from "../src/figures";
import { spawnWorker, type WorkerExit } from "../src/spawn-worker";

/**
 * Two processes append to one session at the same moment. The writer lock lets exactly one in; the
 * other gets SESSION_LOCKED naming the holder. The file never holds interleaved or torn lines.
 */
const TRIALS = 12;
const APPENDS = 150;

const root = mkdtempSync(join(tmpdir(), "arbor-lock-"));
afterAll(() => rmSync(root, { recursive: true, force: true }));

interface Contender {
  tag: string;
  child: ChildProcess;
  exit: Promise<WorkerExit>;
  /** Resolves with the first status line: `appended …` or `locked …`. */
  status: Promise<string>;
}

function contend(file: string, tag: string): Contender {
  let report: (line: string) => void = () => {};
  const status = new Promise<string>((resolve) => {
    report = resolve;
  });
  const { child, exit } = spawnWorker(
    "lock-contender.mjs",
    { file, tag, appends: APPENDS },
    { onLine: (line) => (line.startsWith("appended") || line.startsWith("locked")) && report(line) },
  );
  void exit.then((ended) => report(`ended ${ended.code ?? ended.signal}: ${ended.stderr}`));
  return { tag, child, exit, status };
}

/** Every line parses; entries form one chain; each writer's lines form one contiguous run per trial. */
function checkLines(file: string): { entries: number; runs: string[] } {
  const lines = readFileSync(file, "utf8").split("\n");
  expect(lines.pop()).toBe("");
  const runs: string[] = [];
  let previousId: string | null = null;
  let entries = 0;
  for (const [i, line] of lines.entries()) {
    const entry = JSON.parse(line) as {
      type: string;
      id: string;
      parentId: string | null;
      message?: { content: string };
    };
    if (i === 0) {
      expect(entry.type).toBe("session");
      continue;
    }
    expect(entry.parentId).toBe(previousId);
    previousId = entry.id;
    entries++;
    const tag = String(entry.message?.content).split(":")[0] as string;
    if (runs[runs.length - 1] !== tag) runs.push(tag);
  }
  return { entries, runs };
}

describe("two writers on one session", () => {
  it("lets exactly one process in, the other gets SESSION_LOCKED, and lines never interleave", async () => {
    const file = join(root, "contended.jsonl");
    const winners: string[] = [];
    for (let trial = 0; trial < TRIALS; trial++) {
      const a = contend(file, `A${trial}`);
      const b = contend(file, `B${trial}`);
      const [statusA, statusB] = await Promise.all([a.status, b.status]);
      const outcomes = [statusA, statusB].map((s) => s.split(" ")[0]).sort();
      expect(outcomes, `${statusA} / ${statusB}`).toEqual(["appended", "locked"]);
      const [winner, loser] = statusA.startsWith("appended") ? [a, b] : [b, a];
      const loserStatus = (await loser.status).split(" ");
      expect(loserStatus[2]).toBe("SESSION_LOCKED");
      expect(Number(loserStatus[1])).toBe(winner.child.pid);
      winners.push(winner.tag);
      // The loser retries once the winner has closed: now it gets in and appends after it.
      winner.child.stdin?.end("close\n");
      expect((await winner.exit).code).toBe(0);
      expect((await loser.exit).code).toBe(0);
      const retry = contend(file, `${loser.tag}r`);
      expect(await retry.status).toMatch(/^appended /);
      retry.child.stdin?.end("close\n");
      expect((await retry.exit).code).toBe(0);
    }
    const { entries, runs } = checkLines(file);
    expect(entries).toBe(TRIALS * 2 * APPENDS);
    expect(runs).toEqual(
      winners.flatMap((tag) => [tag, `${tag.startsWith("A") ? "B" : "A"}${tag.slice(1)}r`]),
    );
    recordFigures("lock-contention", {
      trials: TRIALS,
      racingProcesses: TRIALS * 2,
      lockedOut: TRIALS,
      appendsPerWriter: APPENDS,
      entriesOnDisk: entries,
      interleavedOrTornLines: 0,
    });
  });

  it("refuses a second writer in the same process with a typed error naming the holder", () => {
    const file = join(root, "same-process.jsonl");
    const first = openSessionStore(file, { cwd: "/contention" });
    first.appendMessage({ role: "user", content: "hello", timestamp: 1 });
    try {
      let caught: unknown;
      try {
        openSessionStore(file, { cwd: "/contention" });
      } catch (error) {
        caught = error;
      }
      expect(caught).toBeInstanceOf(SessionStorageError);
      expect((caught as SessionStorageError).code).toBe("SESSION_LOCKED");
      expect((caught as SessionStorageError).holder?.pid).toBe(process.pid);
      expect((caught as SessionStorageError).message).toContain(file);
    } finally {
      first.close();
    }
    const reopened = openSessionStore(file, { cwd: "/contention" });
    expect(reopened.getEntries()).toHaveLength(1);
    reopened.close();
  });
});
