import { describe, expect, it } from "vitest";
import { closestName, editDistance } from "./closest-name";

describe("closestName", () => {
  it("finds the snake_case name for a kebab-case spelling", () => {
    expect(closestName("turn-end", ["turn_start", "turn_end", "agent_end"])).toBe("turn_end");
  });

  it("finds the closest name for a typo", () => {
    expect(closestName("sesion_compact", ["session_compact", "session_compact_failed"])).toBe(
      "session_compact",
    );
    expect(closestName("agent_befor_settle", ["agent_settled", "agent_before_settle"])).toBe(
      "agent_before_settle",
    );
  });

  it("returns undefined without candidates", () => {
    expect(closestName("x", [])).toBeUndefined();
  });

  it("computes Levenshtein distances", () => {
    expect(editDistance("kitten", "sitting")).toBe(3);
    expect(editDistance("", "abc")).toBe(3);
    expect(editDistance("same", "same")).toBe(0);
  });
});
