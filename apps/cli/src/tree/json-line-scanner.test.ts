import { describe, expect, it } from "vitest";
import { JsonLineReader } from "./json-line-reader";
import { JsonLineScanner } from "./json-line-scanner";

function random(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const CHARS = [
  "a",
  " ",
  '"',
  "\\",
  "/",
  "\n",
  "\t",
  "\u0000",
  "\u001f",
  "\u007f",
  "é",
  "日",
  "😀",
  "\ud800",
  "\u2028",
  "x".repeat(40),
];

function value(rng: () => number, depth: number): unknown {
  const kind = Math.floor(rng() * (depth > 4 ? 4 : 6));
  if (kind === 0) return [null, true, false][Math.floor(rng() * 3)];
  if (kind === 1) return [0, -1, 1.5, -2.5e-7, 1e21, 123456789, -0.001][Math.floor(rng() * 7)];
  if (kind <= 3)
    return Array.from({ length: Math.floor(rng() * 6) }, () => CHARS[Math.floor(rng() * CHARS.length)]).join(
      "",
    );
  if (kind === 4) return Array.from({ length: Math.floor(rng() * 4) }, () => value(rng, depth + 1));
  return Object.fromEntries(
    Array.from({ length: Math.floor(rng() * 4) }, (_, i) => [`k${i}${value(rng, 9)}`, value(rng, depth + 1)]),
  );
}

/** Bytes that break JSON in interesting places (and a few that do not). */
const INSERTS = [
  0x22, 0x5c, 0x7b, 0x7d, 0x5b, 0x5d, 0x2c, 0x3a, 0x20, 0x09, 0x0d, 0x30, 0x2d, 0x65, 0x2e, 0x74, 0x6e, 0x75,
  0x00, 0x01, 0x7f, 0xc3, 0xff, 0x78,
];

function parses(bytes: Buffer): boolean {
  try {
    JSON.parse(bytes.toString("utf8"));
    return true;
  } catch {
    return false;
  }
}

describe("JsonLineScanner", () => {
  it("accepts exactly what JSON.parse accepts: generated values and their damaged copies", () => {
    const rng = random(7);
    const scanner = new JsonLineScanner();
    let invalid = 0;
    for (let round = 0; round < 3000; round++) {
      const text = JSON.stringify(value(rng, 0)) ?? "null";
      const bytes = Buffer.from(round % 3 === 0 ? ` ${text}\t` : text);
      expect(scanner.scan(bytes), text).toBe("valid");
      for (let mutation = 0; mutation < 6; mutation++) {
        const at = Math.floor(rng() * (bytes.length + 1));
        const byte = INSERTS[Math.floor(rng() * INSERTS.length)] as number;
        const how = mutation % 3;
        const damaged = Buffer.concat([
          bytes.subarray(0, at),
          how === 1 ? Buffer.alloc(0) : Buffer.from([byte]),
          bytes.subarray(how === 0 ? at : at + 1),
        ]);
        const expected = parses(damaged) ? "valid" : "invalid";
        if (expected === "invalid") invalid++;
        expect(scanner.scan(damaged), JSON.stringify(damaged.toString("latin1"))).toBe(expected);
      }
    }
    expect(invalid).toBeGreaterThan(5000);
  });

  it("checks numbers, literals, escapes and structure as JSON does", () => {
    const scanner = new JsonLineScanner();
    const cases = [
      "0",
      "-0",
      "1.5e+3",
      "1E5",
      "-12.25e-2",
      "01",
      "1.",
      ".5",
      "1e",
      "+1",
      "-",
      "0x1",
      "1_000",
      "true",
      "tru",
      "nul",
      "falsey",
      '"\\u00e9\\ud83d\\ude00"',
      '"\\u12g4"',
      '"\\x"',
      '"\\/\\b\\f\\n\\r\\t"',
      '"a\tb"',
      "[1,]",
      "[,1]",
      '{"a":1,}',
      '{"a" 1}',
      "{1:2}",
      "[1 2]",
      "{}",
      "[]",
      " [ ] ",
      "[[[]]]",
      '{"a":{"b":[{}]}}',
      "",
      "  ",
      '"open',
      "[",
      "]",
      "{}}",
    ];
    for (const text of cases) {
      expect(scanner.scan(Buffer.from(text)), text).toBe(parses(Buffer.from(text)) ? "valid" : "invalid");
    }
    expect(scanner.scan(Buffer.from(`${"[".repeat(5000)}${"]".repeat(5000)}`))).toBe("deep");
    // Bytes that are not UTF-8 inside a string are accepted, as JSON.parse accepts their decoding.
    expect(scanner.scan(Buffer.from([0x22, 0xff, 0xc3, 0x22]))).toBe("valid");
  });

  it("takes escapes and quotes at every place of a 16-byte block, several in one block, as JSON does", () => {
    const scanner = new JsonLineScanner();
    const reader = new JsonLineReader();
    // Valid and invalid escapes, a pair of escapes, a raw control character and a quote that ends the string.
    const pieces = [
      "\\n",
      '\\"',
      "\\\\",
      "\\/",
      "\\u00e9",
      "\\n\\t",
      '\\"\\\\\\n',
      "\\x",
      "\\u00g9",
      "\\",
      "\t",
      '"',
    ];
    let checked = 0;
    for (let before = 0; before < 34; before++) {
      for (const piece of pieces) {
        for (let after = 0; after < 20; after += 3) {
          const text = `["${"a".repeat(before)}${piece}${"b".repeat(after)}", "${"c".repeat(after)}${piece}"]`;
          const valid = parses(Buffer.from(text));
          expect(scanner.scan(Buffer.from(text)), text).toBe(valid ? "valid" : "invalid");
          // Where the first string ends (what a reader skips by) is right too.
          if (valid) {
            const items = reader.read(Buffer.from(text), (at) =>
              reader.items(at).map((item) => reader.parse(item)),
            );
            expect(items, text).toEqual(JSON.parse(text));
          }
          checked++;
        }
      }
    }
    expect(checked).toBe(34 * pieces.length * 7);
  });

  it("records where every value ends, so a reader can skip to the next", () => {
    const rng = random(3);
    const reader = new JsonLineReader();
    for (let round = 0; round < 500; round++) {
      const items = Array.from({ length: 1 + Math.floor(rng() * 5) }, () => value(rng, 1));
      const read = reader.read(Buffer.from(JSON.stringify(items, null, round % 2)), (at) =>
        reader.items(at).map((item) => reader.parse(item)),
      );
      expect(read).toEqual(JSON.parse(JSON.stringify(items)));
    }
  });

  it("finds the keys of a key table in an object, and calls escaped or repeated keys unusual", () => {
    const reader = new JsonLineReader();
    const keys = reader.keys(["id", "type", "message"]);
    const other = reader.keys(["x", "typ"]);
    const line = '{ "type" : "message", "types": 1, "typ": {"id": 2}, "id":"a", "x" : [1, {"x": 3}] }';
    const found = reader.read(Buffer.from(line), (at) => {
      const [id, type, message] = reader
        .fields(at, keys)
        .map((value) => (value < 0 ? -1 : reader.parse(value)));
      const [x, typ] = reader.fields(at, other).map((value) => reader.parse(value));
      return { id, type, message, x, typ };
    });
    expect(found).toEqual({ id: "a", type: "message", message: -1, x: [1, { x: 3 }], typ: { id: 2 } });
    expect(reader.read(Buffer.from("{}"), (at) => reader.fields(at, keys))).toEqual([-1, -1, -1]);
    // An escaped key might be one asked for; a repeated one is ambiguous; an array is no object.
    for (const unusual of ['{"\\u0069d": "a"}', '{"id": "a", "id": "b"}', '["id"]'])
      expect(
        reader.read(Buffer.from(unusual), (at) => reader.fields(at, keys)),
        unusual,
      ).toBeUndefined();
    // A repeated key the table does not hold is no matter.
    const line2 = Buffer.from('{"z": 1, "z": 2, "id": "a"}');
    const read = reader.read(line2, (at) =>
      reader.fields(at, keys).map((value) => (value < 0 ? -1 : reader.parse(value))),
    );
    expect(read).toEqual(["a", -1, -1]);
  });

  it("takes only key tables it can hold", () => {
    const scanner = new JsonLineScanner();
    for (const names of [
      ['say "hi"'],
      ["back\\slash"],
      ["thirteen-long"],
      [""],
      ["é"],
      Array.from({ length: 9 }, (_, n) => `k${n}`),
    ])
      expect(() => scanner.keyTable(names), JSON.stringify(names)).toThrow();
    expect(scanner.keyTable(["twelve-bytes"])).toBeGreaterThan(0);
    // 250 names in all: the 32nd table of eight has no room.
    for (let table = 0; table < 31; table++)
      scanner.keyTable(Array.from({ length: 8 }, (_, n) => `t${table}k${n}`));
    expect(() => scanner.keyTable(Array.from({ length: 8 }, (_, n) => `last${n}`))).toThrow(/no room/);
  });
});
