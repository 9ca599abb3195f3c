import { describe, expect, it } from "vitest";
import { validateToolArguments } from "./validate-tool-arguments";

const schema = {
  type: "object",
  properties: {
    path: { type: "string" },
    count: { type: "integer" },
    ratio: { type: "number" },
    flag: { type: "boolean" },
    tags: { type: "array" },
    options: { type: "object" },
    maybe: { type: ["string", "null"] },
    mode: { type: "string", enum: ["r", "w"] },
    free: {},
  },
  required: ["path"],
};

describe("validateToolArguments", () => {
  it("accepts matching arguments and ignores undeclared keys", () => {
    expect(
      validateToolArguments(schema, {
        path: "a",
        count: 2,
        ratio: 0.5,
        flag: true,
        tags: [],
        options: {},
        maybe: null,
        mode: "w",
        free: Symbol.for("anything"),
        extra: 1,
      }),
    ).toEqual([]);
  });

  it("lists every missing required key and type or enum mismatch", () => {
    expect(
      validateToolArguments(schema, { count: 1.5, flag: "yes", tags: {}, options: [], maybe: 3, mode: "x" }),
    ).toEqual([
      'missing required "path"',
      '"count" must be integer, got number',
      '"flag" must be boolean, got string',
      '"tags" must be array, got object',
      '"options" must be object, got array',
      '"maybe" must be string or null, got integer',
      '"mode" must be one of "r", "w", got "x"',
    ]);
  });

  it("rejects non-object arguments and passes schemas it does not understand", () => {
    expect(validateToolArguments(schema, [])).toEqual(["arguments must be an object, got array"]);
    expect(validateToolArguments({ type: "object", properties: { a: { type: "uuid" } } }, { a: 1 })).toEqual(
      [],
    );
    expect(validateToolArguments({}, {})).toEqual([]);
  });
});
