import { describe, expect, it } from "vitest";
import { defineExtension } from "./define-extension";
import { ExtensionError } from "./extension-error";

function codeOf(action: () => unknown): string | undefined {
  try {
    action();
  } catch (error) {
    return ExtensionError.isInstance(error) ? error.code : "not an ExtensionError";
  }
  return undefined;
}

describe("defineExtension", () => {
  it("returns a valid definition unchanged", () => {
    const definition = { apiVersion: 1 as const, name: "ok", setup() {} };
    expect(defineExtension(definition)).toBe(definition);
  });

  it("rejects an unsupported apiVersion with EXTENSION_API_VERSION", () => {
    const bad = { apiVersion: 2, name: "future", setup() {} } as unknown as Parameters<
      typeof defineExtension
    >[0];
    expect(codeOf(() => defineExtension(bad))).toBe("EXTENSION_API_VERSION");
    expect(() => defineExtension(bad)).toThrow(
      /apiVersion is 2, but this version of @arbor\/extensions supports apiVersion 1/,
    );
  });

  it("rejects a missing name or setup with EXTENSION_INVALID", () => {
    const noName = { apiVersion: 1, name: " ", setup() {} } as Parameters<typeof defineExtension>[0];
    const noSetup = { apiVersion: 1, name: "x" } as unknown as Parameters<typeof defineExtension>[0];
    expect(codeOf(() => defineExtension(noName))).toBe("EXTENSION_INVALID");
    expect(codeOf(() => defineExtension(noSetup))).toBe("EXTENSION_INVALID");
    expect(() => defineExtension(noSetup)).toThrow('extension "x" needs a "setup" function, got undefined');
  });
});
