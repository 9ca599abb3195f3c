import { describe, expect, it } from "vitest";
import { formatTimestamp } from "./format-timestamp";

const DAY = 86_400_000;

function expectSameAsDate(ms: number): void {
  expect(formatTimestamp(ms)).toBe(new Date(ms).toISOString());
}

describe("formatTimestamp", () => {
  it("equals toISOString around day, month, year and leap-day boundaries", () => {
    const anchors = [
      0,
      Date.UTC(2024, 1, 28, 23, 59, 59, 999),
      Date.UTC(2024, 1, 29),
      Date.UTC(2024, 2, 1),
      Date.UTC(2025, 11, 31, 23, 59, 59, 999),
      Date.UTC(2026, 0, 1),
      Date.UTC(2000, 1, 29, 12),
      Date.UTC(1900, 1, 28, 23, 59, 59, 999),
    ];
    for (const anchor of anchors) {
      for (const delta of [
        -DAY,
        -1001,
        -1000,
        -999,
        -1,
        0,
        1,
        9,
        10,
        99,
        100,
        999,
        1000,
        59_999,
        3_599_999,
        DAY - 1,
      ]) {
        expectSameAsDate(anchor + delta);
      }
    }
  });

  it("equals toISOString for times before 1970 and at the edges of four-digit years", () => {
    for (const ms of [-1, -999, -1000, -DAY, -DAY - 1, Date.UTC(1969, 11, 31, 23, 59, 59, 999)])
      expectSameAsDate(ms);
    const firstOfYear0 = new Date("0000-01-01T00:00:00.000Z").getTime();
    for (const ms of [firstOfYear0, firstOfYear0 + 1, new Date("9999-12-31T23:59:59.999Z").getTime()]) {
      expectSameAsDate(ms);
    }
  });

  it("hands six-digit years to toISOString", () => {
    for (const ms of [
      new Date("9999-12-31T23:59:59.999Z").getTime() + 1,
      new Date("0000-01-01T00:00:00.000Z").getTime() - 1,
      8.64e15,
      -8.64e15,
    ]) {
      expectSameAsDate(ms);
      expect(formatTimestamp(ms)).toMatch(/^[+-]\d{6}-/);
    }
  });

  it("equals toISOString for random times, with the day cache switching between them", () => {
    let seed = 42;
    const next = () => {
      seed = (seed * 1_103_515_245 + 12_345) % 2 ** 31;
      return seed / 2 ** 31;
    };
    for (let i = 0; i < 5000; i++) {
      const ms = Math.floor((next() - 0.3) * 400 * 365 * DAY);
      expectSameAsDate(ms);
      expectSameAsDate(ms + Math.floor(next() * 5000));
    }
  });

  it("equals toISOString on every day of years 0000-9999 (the date part is calendar arithmetic)", () => {
    const mismatches: string[] = [];
    const end = Date.parse("9999-12-31T00:00:00.000Z");
    for (let ms = Date.parse("0000-01-01T00:00:00.000Z") + 45_296_789; ms <= end; ms += DAY) {
      const expected = new Date(ms).toISOString();
      if (formatTimestamp(ms) !== expected && mismatches.push(expected) > 5) break;
    }
    expect(mismatches).toEqual([]);
    // 3.65 million days: about 2 s alone, more on a busy machine (it timed out at 5 s beside a second
    // test run).
  }, 30_000);

  it("throws the RangeError of toISOString for invalid times", () => {
    for (const ms of [Number.NaN, Number.POSITIVE_INFINITY, 8.64e15 + 1, -8.64e15 - 1]) {
      expect(() => new Date(ms).toISOString()).toThrow(RangeError);
      expect(() => formatTimestamp(ms)).toThrow(RangeError);
    }
  });

  it("treats a fractional time as a Date does (truncated)", () => {
    expectSameAsDate(1_700_000_000_123.7);
    expectSameAsDate(-1_700_000_000_123.7);
  });
});
