import { describe, expect, it } from "vitest";
import { composeGoal } from "./compose-goal";

describe("composeGoal", () => {
  it("labels follow-ups and the open request", () => {
    expect(
      composeGoal([], ["Add pagination.", "Make it configurable.", "Document it."], "Document it."),
    ).toEqual([
      "Add pagination.",
      "Follow-up: Make it configurable.",
      "Current request (in progress): Document it.",
    ]);
  });

  it("leaves a single task unlabelled, even when it is open", () => {
    expect(composeGoal([], ["Add pagination."], "Add pagination.")).toEqual(["Add pagination."]);
  });

  it("keeps an earlier goal first and re-labels its own labels (also the old Later request:)", () => {
    const previous = [
      "Port the parser.",
      "Later request: Add benchmarks.",
      "Current request (in progress): Fix CI.",
    ];
    expect(composeGoal(previous, ["Release it."], undefined)).toEqual([
      "Port the parser.",
      "Follow-up: Add benchmarks.",
      "Follow-up: Fix CI.",
      "Latest request: Release it.",
    ]);
  });

  it("marks a carried-over current request latest once it was answered in this range", () => {
    const previous = ["Port the parser.", "Current request (in progress): Fix CI."];
    expect(composeGoal(previous, [], undefined)).toEqual(["Port the parser.", "Latest request: Fix CI."]);
    expect(composeGoal(previous, [], "Fix CI.")).toEqual(previous);
  });

  it("keeps the first task and the newest ones when there are too many", () => {
    const requests = ["one", "two", "three", "four", "five"];
    expect(composeGoal([], requests, undefined, 3)).toEqual([
      "one",
      "Follow-up: four",
      "Latest request: five",
    ]);
  });
});
