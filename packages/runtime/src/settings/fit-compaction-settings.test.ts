import { describe, expect, it } from "vitest";
import { fitBranchSummaryReserve, fitCompactionSettings } from "./fit-compaction-settings";

const defaults = { enabled: true, reserveTokens: 16384, keepRecentTokens: 20000 };

describe("fitCompactionSettings", () => {
  it("scales pi's defaults for the README's 8k model: the threshold becomes positive again", () => {
    const fitted = fitCompactionSettings(defaults, 8192);
    expect(fitted).toEqual({
      enabled: true,
      reserveTokens: 2048,
      keepRecentTokens: 2048,
      scaledFrom: { reserveTokens: 16384, keepRecentTokens: 20000, contextWindow: 8192 },
    });
    expect(8192 - fitted.reserveTokens).toBe(6144);
  });

  it("leaves values that fit unchanged, up to three quarters of the window", () => {
    expect(fitCompactionSettings(defaults, 200_000)).toEqual(defaults);
    expect(fitCompactionSettings(defaults, 48_512)).toEqual(defaults);
    expect(fitCompactionSettings(defaults, 48_511).scaledFrom).toBeDefined();
    expect(
      fitCompactionSettings({ ...defaults, reserveTokens: 10_000, keepRecentTokens: 4000 }, 25_000),
    ).toEqual({
      ...defaults,
      reserveTokens: 10_000,
      keepRecentTokens: 4000,
    });
  });

  it("caps each value separately, so a small one stays small", () => {
    expect(fitCompactionSettings({ ...defaults, reserveTokens: 500 }, 8000)).toMatchObject({
      reserveTokens: 500,
      keepRecentTokens: 2000,
    });
    expect(fitCompactionSettings({ ...defaults, keepRecentTokens: 0 }, 16_000)).toMatchObject({
      reserveTokens: 4000,
      keepRecentTokens: 0,
    });
  });

  it("changes nothing for an unknown window and keeps enabled as configured", () => {
    expect(fitCompactionSettings(defaults, 0)).toEqual(defaults);
    expect(fitCompactionSettings({ ...defaults, enabled: false }, 4096)).toMatchObject({
      enabled: false,
      reserveTokens: 1024,
    });
  });

  it("fits the branch summary reserve the same way", () => {
    expect(fitBranchSummaryReserve(16384, 8192)).toBe(2048);
    expect(fitBranchSummaryReserve(16384, 200_000)).toBe(16384);
    expect(fitBranchSummaryReserve(16384, 0)).toBe(16384);
  });
});
