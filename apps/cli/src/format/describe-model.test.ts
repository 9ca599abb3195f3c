import { describe, expect, it } from "vitest";
import { describeModel } from "./describe-model";

describe("describeModel", () => {
  it("joins provider and id", () => {
    expect(describeModel({ provider: "anthropic", modelId: "claude-sonnet-4-5" })).toBe(
      "anthropic/claude-sonnet-4-5",
    );
  });
  it("has no model for null, undefined, or a model with neither field", () => {
    expect(describeModel(null)).toBeUndefined();
    expect(describeModel(undefined)).toBeUndefined();
    expect(describeModel({})).toBeUndefined();
  });
  it("shows a missing half as ?", () => {
    expect(describeModel({ provider: "openai" })).toBe("openai/?");
    expect(describeModel({ modelId: "gpt-5" })).toBe("?/gpt-5");
  });
});
