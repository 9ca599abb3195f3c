import { describe, expect, it } from "vitest";
import { parseSlashCommand } from "./slash-commands";

describe("parseSlashCommand", () => {
  it("splits the name and the arguments", () => {
    expect(parseSlashCommand("/compact  focus on the parser ")).toEqual({
      name: "compact",
      args: "focus on the parser",
    });
    expect(parseSlashCommand("/TREE")).toEqual({ name: "tree", args: "" });
  });

  it("ignores ordinary prompts", () => {
    expect(parseSlashCommand("fix /tmp paths")).toBeUndefined();
    expect(parseSlashCommand("/")).toBeUndefined();
  });
});
