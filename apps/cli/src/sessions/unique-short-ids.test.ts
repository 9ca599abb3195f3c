import { describe, expect, it } from "vitest";
import { shortSessionId } from "./short-session-id";
import { uniqueShortIds } from "./unique-short-ids";

describe("short session ids", () => {
  it("take the random end of a UUIDv7, not its timestamp start", () => {
    const a = "019ce1a2-5f3b-7c41-9a2e-3d8f0b6c4e17";
    const b = "019ce1a2-5f3c-7a10-8b11-77aa12cd9f03";
    expect(shortSessionId(a)).toBe("0b6c4e17");
    expect(shortSessionId(b)).toBe("12cd9f03");
    expect(a.slice(0, 8)).toBe(b.slice(0, 8)); // what the status line showed before
  });

  it("grow in a listing until each names one session", () => {
    expect(
      uniqueShortIds([
        "019ce1a2-5f3b-7c41-9a2e-3d8f0b6c4e17",
        "019ce1a2-5f3b-7c41-9a2e-3d8e0b6c4e17",
        "019ce1a2-5f3b-7c41-9a2e-aaaaaaaaaaaa",
      ]),
    ).toEqual(["f0b6c4e17", "e0b6c4e17", "aaaaaaaa"]);
    expect(uniqueShortIds(["same-id-1234567890", "same-id-1234567890"])).toEqual([
      "sameid1234567890",
      "sameid1234567890",
    ]);
  });
});
