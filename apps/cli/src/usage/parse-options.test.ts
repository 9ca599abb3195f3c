import { describe, expect, it } from "vitest";
import { type OptionTable, parseOptions } from "./parse-options";

const TABLE: OptionTable = {
  print: { type: "optional-string", short: "p" },
  leaf: { type: "string", valueName: "ID" },
  json: { type: "boolean" },
  continue: { type: "boolean", short: "c" },
};

describe("parseOptions", () => {
  it("reads flags, values (separate or after =), short aliases and positionals in any order", () => {
    expect(parseOptions(["a", "--leaf", "x", "-c", "--json", "b", "--print=hi"], TABLE, "t")).toEqual({
      values: { leaf: "x", continue: true, json: true, print: "hi" },
      positionals: ["a", "b"],
      help: false,
    });
  });

  it("gives an optional-string without value as true, and takes '-' as a value", () => {
    expect(parseOptions(["-p"], TABLE, "t").values).toEqual({ print: true });
    expect(parseOptions(["-p", "--json"], TABLE, "t").values).toEqual({ print: true, json: true });
    expect(parseOptions(["-p", "-"], TABLE, "t").values).toEqual({ print: "-" });
  });

  it("stops at -- (the rest are positionals, --help included)", () => {
    expect(parseOptions(["--json", "--", "--leaf", "--help"], TABLE, "t")).toEqual({
      values: { json: true },
      positionals: ["--leaf", "--help"],
      help: false,
    });
  });

  it("reports --help or -h anywhere before -- without checking the rest", () => {
    expect(parseOptions(["--bogus", "-h"], TABLE, "t").help).toBe(true);
    expect(parseOptions(["--leaf", "--help"], TABLE, "t").help).toBe(true);
  });

  it("names the option in every error, never the parser's wording", () => {
    const message = (args: string[]) => {
      try {
        parseOptions(args, TABLE, "t");
        return "accepted";
      } catch (error) {
        return (error as Error).message;
      }
    };
    expect(message(["--bogus"])).toBe("t: unknown option --bogus (see arbor t --help)");
    expect(message(["-z"])).toBe("t: unknown option -z (see arbor t --help)");
    expect(message(["--leaf"])).toBe("t: --leaf needs a value (--leaf ID) (see arbor t --help)");
    expect(message(["--json=1"])).toBe("t: --json takes no value (see arbor t --help)");
    expect(message(["-c=1"])).toBe("t: -c takes no value (see arbor t --help)");
  });
});
