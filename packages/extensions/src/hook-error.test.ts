import { describe, expect, it } from "vitest";
import { HookError } from "./hook-error";

describe("HookError", () => {
  it("carries its code, hook and extension, and the shared Arbor error marker", () => {
    const cause = new Error("inner");
    const error = new HookError("HOOK_FAILED", "failed", { hookName: "turn_end", extensionId: "ext", cause });
    expect(error).toBeInstanceOf(Error);
    expect([error.name, error.code, error.hookName, error.extensionId, error.cause]).toEqual([
      "HookError",
      "HOOK_FAILED",
      "turn_end",
      "ext",
      cause,
    ]);
    expect((error as unknown as Record<symbol, unknown>)[Symbol.for("arbor.error")]).toBe(true);
    expect(Object.keys(error)).not.toContain(Symbol.for("arbor.error").toString());
  });

  it("recognises copies by its own marker, not by prototype, name or the shared Arbor marker", () => {
    const foreign = Object.assign(new Error("x"), { name: "HookError" });
    expect(HookError.isInstance(foreign)).toBe(false);
    Object.defineProperty(foreign, Symbol.for("arbor.error"), { value: true });
    expect(HookError.isInstance(foreign)).toBe(false);
    Object.defineProperty(foreign, Symbol.for("arbor.error.hook"), { value: true });
    expect(HookError.isInstance(foreign)).toBe(true);
    expect(
      HookError.isInstance(new HookError("HOOK_TIMEOUT", "t", { hookName: "a", extensionId: undefined })),
    ).toBe(true);
    expect(HookError.isInstance(new Error("plain"))).toBe(false);
    expect(HookError.isInstance(null)).toBe(false);
  });
});
