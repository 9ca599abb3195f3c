import { describe, expect, it } from "vitest";
import { safeJsonStringify, safeJsonStringifyWithRawFields } from "./safe-json-stringify";

describe("safeJsonStringify", () => {
  it("escapes C0, DEL, C1, separators and bidi overrides, and stays the same JSON value", () => {
    const value = { text: "a\u001b]52;c;x\u0007b\u009b2J\u007f\u0085\u2028\u202e\u2066c", n: 1 };
    const json = safeJsonStringify(value);
    expect(json).toBe(
      '{"text":"a\\u001b]52;c;x\\u0007b\\u009b2J\\u007f\\u0085\\u2028\\u202e\\u2066c","n":1}',
    );
    // biome-ignore lint/suspicious/noControlCharactersInRegex: checking for raw control characters
    expect(json).not.toMatch(/[\u0000-\u001f\u007f-\u009f\u2028\u2029\u202a-\u202e\u2066-\u2069]/);
    expect(JSON.parse(json)).toEqual(value);
  });

  it("passes the replacer on", () => {
    expect(safeJsonStringify({ a: 1, b: 2 }, (key, value) => (key === "b" ? undefined : value))).toBe(
      '{"a":1}',
    );
  });
});

describe("safeJsonStringifyWithRawFields", () => {
  const value = {
    id: "s\u2028",
    path: ["placeholder"],
    nested: { when: new Date(0), skip: undefined, list: [1, "x"] },
    gone: undefined,
    fn: () => 1,
    last: null,
  };

  it("is safeJsonStringify of the object with the raw fields' values, in the object's key order", () => {
    const path = ["a1b2c3d4", 'q"uote', "sep\u2029", "bidi\u202e"];
    const json = safeJsonStringifyWithRawFields(value, { path: JSON.stringify(path) });
    expect(json).toBe(safeJsonStringify({ ...value, path }));
    expect(Object.keys(JSON.parse(json))).toEqual(["id", "path", "nested", "last"]);
  });

  it("writes a raw field only where the object has the key", () => {
    expect(safeJsonStringifyWithRawFields({ a: 1 }, { b: "[2]" })).toBe('{"a":1}');
    expect(safeJsonStringifyWithRawFields({}, {})).toBe("{}");
    expect(safeJsonStringifyWithRawFields({ a: undefined, b: 2 }, { a: "[]" })).toBe('{"a":[],"b":2}');
  });
});
