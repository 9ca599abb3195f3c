import { describe, expect, it } from "vitest";
import { generateEntryId, randomShortId } from "./generate-entry-id";

describe("randomShortId", () => {
  it("gives 8 lowercase hex characters, across several refills of its random pool, without repeats", () => {
    const ids = Array.from({ length: 5000 }, () => randomShortId());
    for (const id of ids) expect(id).toMatch(/^[0-9a-f]{8}$/);
    // 5000 draws of 32 random bits: a repeat has probability ~0.3%; a stuck pool would repeat at once.
    expect(new Set(ids).size).toBeGreaterThan(4990);
    // Every hex digit shows up in every position (the bits are not constant).
    for (let position = 0; position < 8; position++) {
      expect(new Set(ids.map((id) => id[position])).size).toBe(16);
    }
  });
});

describe("generateEntryId", () => {
  it("skips ids already taken", () => {
    const taken = new Set(["aaaaaaaa", "bbbbbbbb"]);
    const candidates = ["aaaaaaaa", "bbbbbbbb", "cccccccc"];
    expect(generateEntryId(taken, () => candidates.shift() as string)).toBe("cccccccc");
  });

  it("falls back to a full UUID when the source keeps colliding", () => {
    const taken = new Set(["aaaaaaaa"]);
    expect(generateEntryId(taken, () => "aaaaaaaa")).toMatch(
      /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/,
    );
  });
});
