import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { Writable } from "node:stream";
import { openSessionStore } from "@arbor/session-store";
import { afterAll, describe, expect, it } from "vitest";
import { runCli } from "../run-cli";

const dir = fs.mkdtempSync(path.join(os.tmpdir(), "arbor-tree-drain-"));
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

/** A session of `count` user messages in one chain. */
function writeSession(count: number): string {
  const file = path.join(dir, `chain-${count}.jsonl`);
  const store = openSessionStore(file);
  for (let i = 0; i < count; i++) {
    store.appendMessage({ role: "user", content: `message number ${i}`, timestamp: 1_700_000_000_000 + i });
  }
  store.close();
  return file;
}

/**
 * A stream that takes writes into a small buffer (`highWaterMark` 16 KB) and hands them on only when
 * told: like a pipe whose reader is not reading.
 */
function heldStream() {
  const chunks: string[] = [];
  const waiting: (() => void)[] = [];
  let writes = 0;
  let flowing = false;
  const stream = new Writable({
    highWaterMark: 16 * 1024,
    decodeStrings: false,
    write(chunk: string, _encoding, done) {
      chunks.push(chunk);
      if (flowing) done();
      else waiting.push(() => done());
    },
  });
  const write = stream.write.bind(stream);
  stream.write = ((chunk: string) => {
    writes++;
    return write(chunk);
  }) as typeof stream.write;
  return {
    stream,
    writes: () => writes,
    text: () => chunks.join(""),
    release: () => {
      flowing = true;
      for (const done of waiting.splice(0)) done();
    },
  };
}

describe("arbor tree on a slow output", () => {
  it("waits for the output to drain between batches instead of queueing the whole tree", async () => {
    const file = writeSession(6000); // 6 batches of 1,024 rows, each far above the 16 KB buffer
    const out = heldStream();
    const stderr = { write: () => true };
    const env = { ARBOR_HOME: path.join(dir, "home") };
    const running = runCli(["tree", file], { stdout: out.stream, stderr, env, cwd: dir });
    // Give the command time to write everything it would write without waiting.
    for (let i = 0; i < 50; i++) await new Promise((resolve) => setTimeout(resolve, 10));
    expect(out.writes()).toBe(1);
    out.release();
    expect(await running).toBe(0);
    expect(out.writes()).toBe(6);
    const rows = out.text().trimEnd().split("\n");
    expect(rows).toHaveLength(2 + 6000); // the header, a blank line, one row per entry
    expect(rows.at(-1)).toContain("message number 5999");
  });
});
