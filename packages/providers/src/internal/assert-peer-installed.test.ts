import { describe, expect, it } from "vitest";
import { MissingPeerDependencyError } from "../errors/missing-peer-dependency-error";
import { assertPeerInstalled } from "./assert-peer-installed";

describe("assertPeerInstalled", () => {
  it("passes for an installed package", () => {
    expect(() =>
      assertPeerInstalled({
        packageName: "openai",
        versionRange: "^6.49.0",
        neededBy: "@arbor/providers/openai",
      }),
    ).not.toThrow();
  });

  it("throws MISSING_PEER_DEPENDENCY naming the package and the install command", () => {
    const details = {
      packageName: "@arbor-test/not-installed",
      versionRange: "^2.0.0",
      neededBy: "a feature",
    };
    let thrown: unknown;
    try {
      assertPeerInstalled(details);
    } catch (error) {
      thrown = error;
    }
    expect(MissingPeerDependencyError.isInstance(thrown)).toBe(true);
    expect(thrown).toMatchObject({
      code: "MISSING_PEER_DEPENDENCY",
      packageName: "@arbor-test/not-installed",
      versionRange: "^2.0.0",
      neededBy: "a feature",
      message:
        'a feature needs @arbor-test/not-installed, an optional peer dependency that is not installed: npm install @arbor-test/not-installed@"^2.0.0"',
    });
  });
});
