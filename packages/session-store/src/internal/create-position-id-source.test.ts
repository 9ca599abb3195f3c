import { createHash } from "node:crypto";
import { describe, expect, it } from "vitest";
import { createPositionIdSource } from "./create-position-id-source";

/** The definition the ids of version-1 entries have always followed (they must not change). */
const defined = (seed: string, position: number) =>
  createHash("sha256").update(`${seed}\n${position}`).digest("hex").slice(0, 8);

describe("createPositionIdSource", () => {
  it("gives the n-th candidate as the first 8 hex characters of SHA-256(seed, newline, n)", () => {
    const seed = JSON.stringify({
      type: "session",
      id: "d703a1a9-1b7b-4fb1-b512-c9738b1fe617",
      timestamp: "2025-11-20T23:33:50.805Z",
      cwd: "/Users/someone/workspaces/pi-mono/日本語",
    });
    const next = createPositionIdSource(seed);
    for (let position = 0; position < 1200; position++) expect(next()).toBe(defined(seed, position));
  });

  it("starts over for each new source of the same seed", () => {
    const first = createPositionIdSource("seed");
    const ids = Array.from({ length: 5 }, () => first());
    expect(createPositionIdSource("seed")()).toBe(ids[0]);
    expect(new Set(ids).size).toBe(5);
  });
});
