import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { LineScanner } from "./line-scanner";
import { RecordTable } from "./record-table";
import { scanSessionFile } from "./scan-session-file";
import { nodeStorageFs } from "./storage-fs";

const dir = fs.mkdtempSync(path.join(os.tmpdir(), "arbor-scan-"));
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

describe("scanSessionFile", () => {
  it("calls afterSample once, as soon as enough lines were fed, and feeds every line", () => {
    const lines = [JSON.stringify({ type: "session", version: 3, id: "s", timestamp: "t", cwd: "/w" })];
    for (let i = 0; i < 200; i++) {
      lines.push(
        JSON.stringify({
          type: "custom",
          id: `e${i}`,
          parentId: i === 0 ? null : `e${i - 1}`,
          timestamp: "t",
          customType: "x",
        }),
      );
    }
    const file = path.join(dir, "s.jsonl");
    fs.writeFileSync(file, `${lines.join("\n")}\n`);
    const table = new RecordTable();
    const scanner = new LineScanner(file, table);
    const seen: number[] = [];
    const fd = fs.openSync(file, "r");
    try {
      const size = fs.fstatSync(fd).size;
      const result = scanSessionFile(
        nodeStorageFs,
        fd,
        scanner,
        0,
        size,
        1024,
        () => seen.push(scanner.counters.linesScanned),
        3000,
      );
      expect(result).toEqual({ end: size });
    } finally {
      fs.closeSync(fd);
    }
    expect(seen).toHaveLength(1);
    expect(seen[0]).toBeGreaterThan(30);
    expect(seen[0]).toBeLessThan(50); // 3 KB (three 1 KB chunks) of ~80-byte lines
    expect(table.size).toBe(200);
    expect(table.parentIndex()[199]).toBe(198);
  });

  it("hands back kept bytes in a buffer of their own: a later scan by the same scanner leaves them as read", () => {
    const line = (id: string, parent: string | null) =>
      JSON.stringify({ type: "custom", id, parentId: parent, timestamp: "t", customType: "x" });
    const head = JSON.stringify({ type: "session", version: 3, id: "s", timestamp: "t", cwd: "/w" });
    const first = path.join(dir, "kept-1.jsonl");
    const second = path.join(dir, "kept-2.jsonl");
    fs.writeFileSync(first, `${head}\n${line("a1", null)}\n${line("a2", "a1")}\n`);
    fs.writeFileSync(second, `${line("b1", null)}\n${line("b2", "b1")}\n`); // shorter than the first
    const table = new RecordTable();
    const scanner = new LineScanner(first, table, { small: false }); // the large-file scan
    const scan = (file: string, keepBytes: number) => {
      const fd = fs.openSync(file, "r");
      try {
        return scanSessionFile(
          nodeStorageFs,
          fd,
          scanner,
          0,
          fs.fstatSync(fd).size,
          1024,
          undefined,
          3000,
          keepBytes,
        );
      } finally {
        fs.closeSync(fd);
      }
    };
    const kept = scan(first, 1024).bytes;
    expect(kept).toBeDefined();
    const text = () => kept?.buf.toString("utf8", 0, kept.length);
    expect(text()).toBe(fs.readFileSync(first, "utf8"));
    scan(second, 0);
    scan(second, 0);
    expect(text()).toBe(fs.readFileSync(first, "utf8"));
    expect(table.records().map((r) => r.id)).toEqual(["a1", "a2", "b1", "b2", "b1", "b2"]);
  });
});
