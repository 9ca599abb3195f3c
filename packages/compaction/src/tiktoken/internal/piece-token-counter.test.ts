import { createRequire } from "node:module";
import { Tiktoken } from "js-tiktoken/lite";
import { describe, expect, it } from "vitest";
import { createPieceTokenCounter, type PieceEncoder } from "./piece-token-counter";

const require = createRequire(import.meta.url);

function loadRanks(name: "o200k_base" | "cl100k_base") {
  const module = require(`js-tiktoken/ranks/${name}`) as { default?: unknown };
  return (module.default ?? module) as ConstructorParameters<typeof Tiktoken>[0];
}

/** An encoder that counts its calls and the pieces it was given. */
function spyOn(encoder: PieceEncoder) {
  const pieces: string[] = [];
  const spy: PieceEncoder = {
    encode: (text, allowed, disallowed) => {
      pieces.push(text);
      return encoder.encode(text, allowed, disallowed);
    },
  };
  return { spy, pieces };
}

const TRICKY = [
  "",
  " ",
  "   x",
  "a   b",
  "x   ",
  "\t\n\r\n  \n  y",
  "\n\n\n",
  "don't I'M we'LL they'Re it's",
  "123456789 12 1234 3.14159",
  "<|endoftext|>hello<|fim_prefix|> <|im_start|>",
  "日本語のテキスト、中文文本。한국어",
  "emoji 👍🏽👨‍👩‍👧 mixed",
  "e\u0301 combining \u0300\u0301",
  "CamelCaseWords andHTTPServer getURLForID",
  "    indented\n        more\n\tTabbed();",
  "\u00a0nbsp\u2028line\u2029para",
  "lone \ud800 surrogate \udfff",
  'const x = { "a": [1, 2, 3], b: `t$' + "{y}` }; // comment",
  "https://example.com/path?q=1&r=2#frag",
  "a".repeat(300),
  " ".repeat(100),
  "0123456789".repeat(20),
];

const FRAGMENTS = [
  " ",
  "  ",
  "\t",
  "\n",
  "\r\n",
  "a",
  "Z",
  "word",
  "Word",
  "WORD",
  "'s",
  "'T",
  "'ll",
  "1",
  "42",
  "2026",
  ".",
  ",",
  "!?",
  "()",
  "{}",
  "=>",
  "//",
  "_",
  "-",
  "日本",
  "语",
  "é",
  "\u0301",
  "👍",
  "🏽",
  "\u200d",
  "<|endoftext|>",
  "\u00a0",
  "λ",
  "Ωmega",
  "$",
  "\\",
  '"',
  "`",
];

/** Deterministic strings made of the fragments above (a small linear congruential generator). */
function randomTexts(count: number, seed: number): string[] {
  let state = seed >>> 0;
  const next = () => {
    state = (Math.imul(state, 1664525) + 1013904223) >>> 0;
    return state;
  };
  const texts: string[] = [];
  for (let i = 0; i < count; i++) {
    let text = "";
    const length = next() % 60;
    for (let j = 0; j < length; j++) text += FRAGMENTS[next() % FRAGMENTS.length];
    texts.push(text);
  }
  return texts;
}

describe("createPieceTokenCounter", () => {
  for (const name of ["o200k_base", "cl100k_base"] as const) {
    it(`counts exactly what encode(text, [], []) counts (${name})`, { timeout: 60_000 }, () => {
      const ranks = loadRanks(name);
      const encoder = new Tiktoken(ranks);
      const count = createPieceTokenCounter(encoder, ranks.pat_str);
      for (const text of [...TRICKY, ...randomTexts(3000, name.length)]) {
        const expected = encoder.encode(text, [], []).length;
        expect(count(text), JSON.stringify(text)).toBe(expected);
        // Again, from the memo.
        expect(count(text), JSON.stringify(text)).toBe(expected);
      }
    });
  }

  it("encodes each distinct piece once, long pieces every time, and starts over when the memo is full", {
    timeout: 60_000,
  }, () => {
    const ranks = loadRanks("cl100k_base");
    const encoder = new Tiktoken(ranks);
    const { spy, pieces } = spyOn(encoder);
    const count = createPieceTokenCounter(spy, ranks.pat_str, { maxPieceLength: 10, maxPieces: 3 });
    expect(count("hello world hello world")).toBe(4);
    expect(pieces).toEqual(["hello", " world", " hello"]);
    expect(count("hello world")).toBe(2);
    expect(pieces).toHaveLength(3);
    const long = `x${"y".repeat(20)}`;
    expect(count(`${long} ${long}`)).toBe(encoder.encode(`${long} ${long}`, [], []).length);
    expect(pieces.slice(3)).toEqual([long, ` ${long}`]);
    // Full (3 pieces): a new one empties the memo, so "hello" is encoded again afterwards.
    expect(count(" again")).toBe(1);
    expect(count("hello")).toBe(1);
    expect(pieces.slice(5)).toEqual([" again", "hello"]);
  });
});
