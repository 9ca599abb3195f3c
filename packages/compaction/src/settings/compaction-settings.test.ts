import { ArborError } from "@arbor/providers";
import { describe, expect, it } from "vitest";
import { DEFAULT_COMPACTION_SETTINGS, resolveCompactionSettings, shouldCompact } from "./compaction-settings";
import { CompactionSettingsError } from "./compaction-settings-error";

const model = { provider: "some-provider", id: "org/big-model" };

function errorOf(run: () => unknown): CompactionSettingsError {
  try {
    run();
  } catch (error) {
    if (error instanceof CompactionSettingsError) return error;
    throw error;
  }
  throw new Error("expected a CompactionSettingsError");
}

describe("resolveCompactionSettings", () => {
  it("uses pi's defaults", () => {
    expect(resolveCompactionSettings(undefined)).toEqual(DEFAULT_COMPACTION_SETTINGS);
    expect(resolveCompactionSettings({})).toEqual({
      enabled: true,
      reserveTokens: 16384,
      keepRecentTokens: 20000,
    });
  });

  it("resolves each field independently: override, then ordinary, then default", () => {
    const input = {
      enabled: false,
      keepRecentTokens: 5000,
      modelOverrides: {
        "some-provider/org/big-model": { reserveTokens: 400000 },
        "other/x": { keepRecentTokens: 1 },
      },
    };
    expect(resolveCompactionSettings(input, model)).toEqual({
      enabled: false,
      reserveTokens: 400000,
      keepRecentTokens: 5000,
    });
    expect(resolveCompactionSettings(input, "some-provider/org/big-model").reserveTokens).toBe(400000);
    expect(
      resolveCompactionSettings(input, { provider: "Some-Provider", id: "org/big-model" }).reserveTokens,
    ).toBe(16384);
    expect(resolveCompactionSettings(input)).toEqual({
      enabled: false,
      reserveTokens: 16384,
      keepRecentTokens: 5000,
    });
  });

  it("rejects an invalid ordinary value even when a valid override exists", () => {
    const error = errorOf(() =>
      resolveCompactionSettings(
        { reserveTokens: -1, modelOverrides: { "some-provider/org/big-model": { reserveTokens: 5 } } },
        model,
      ),
    );
    expect(error.code).toBe("INVALID_COMPACTION_SETTING");
    expect(error.key).toBe("compaction.reserveTokens");
    expect(error.message).toBe(
      "Invalid compaction.reserveTokens setting: -1. Expected a non-negative safe integer.",
    );
    expect(ArborError.isInstance(error)).toBe(true);
    expect(errorOf(() => resolveCompactionSettings({ keepRecentTokens: 1.5 })).key).toBe(
      "compaction.keepRecentTokens",
    );
    expect(errorOf(() => resolveCompactionSettings({ keepRecentTokens: "20000" })).message).toContain(
      '"20000"',
    );
  });

  it("rejects a matching override that is not an object, or an invalid override field", () => {
    const notObject = errorOf(() =>
      resolveCompactionSettings({ modelOverrides: { "some-provider/org/big-model": 5 } }, model),
    );
    expect(notObject.key).toBe('compaction.modelOverrides["some-provider/org/big-model"]');
    expect(notObject.message).toContain("Expected an object.");
    const badField = errorOf(() =>
      resolveCompactionSettings(
        { modelOverrides: { "some-provider/org/big-model": { keepRecentTokens: 2 ** 60 } } },
        model,
      ),
    );
    expect(badField.key).toBe('compaction.modelOverrides["some-provider/org/big-model"].keepRecentTokens');
  });

  it("ignores overrides of other models, even invalid ones", () => {
    expect(resolveCompactionSettings({ modelOverrides: { "other/m": 7 } }, model).reserveTokens).toBe(16384);
  });

  it("rejects a non-boolean enabled and a non-object modelOverrides", () => {
    expect(errorOf(() => resolveCompactionSettings({ enabled: "yes" })).key).toBe("compaction.enabled");
    expect(errorOf(() => resolveCompactionSettings({ modelOverrides: [] })).key).toBe(
      "compaction.modelOverrides",
    );
  });
});

describe("shouldCompact", () => {
  it("is strict and respects enabled", () => {
    const settings = { enabled: true, reserveTokens: 100 };
    expect(shouldCompact(100, 200, settings)).toBe(false);
    expect(shouldCompact(101, 200, settings)).toBe(true);
    expect(shouldCompact(1_000_000, 200, { ...settings, enabled: false })).toBe(false);
    expect(shouldCompact(1_000_000, 0, settings)).toBe(false);
  });
});
