import { describe, expect, it } from "vitest";
import { resolveSessionsDir, slugifyCwd } from "./session-paths";

describe("session paths", () => {
  it("slugifies the working folder like pi", () => {
    expect(slugifyCwd("/home/ada/proj")).toBe("--home-ada-proj--");
    expect(slugifyCwd("/")).toBe("----");
  });

  it("puts sessions under <home>/sessions/<slug>", () => {
    expect(resolveSessionsDir("/tmp/h", "/work/x")).toBe("/tmp/h/sessions/--work-x--");
  });
});
