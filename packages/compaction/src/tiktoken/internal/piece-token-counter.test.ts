import { createRequire } from "node:module";
import { Tiktoken } from "js-tiktoken/lite";
import { describe, expect, it } from "vitest";
import { createBytePairCounter } from "./byte-pair-counter";
import { createPieceTokenCounter } from "./piece-token-counter";

const require = createRequire(import.meta.url);

type RankFile = ConstructorParameters<typeof Tiktoken>[0] & { bpe_ranks: string };

function loadRanks(name: "o200k_base" | "cl100k_base"): RankFile {
  const module = require(`js-tiktoken/ranks/${name}`) as { default?: unknown };
  return (module.default ?? module) as RankFile;
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
  "=".repeat(500),
  "-=".repeat(250),
  "0123456789".repeat(20),
  "antidisestablishmentarianism supercalifragilisticexpialidocious",
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
  "ing",
  "tion",
  "qu",
  "zz",
  "xk",
];

/** Deterministic strings made of the fragments above (a small linear congruential generator). */
function randomTexts(count: number, seed: number, maxFragments = 60): string[] {
  let state = seed >>> 0;
  const next = () => {
    state = (Math.imul(state, 1664525) + 1013904223) >>> 0;
    return state;
  };
  const texts: string[] = [];
  for (let i = 0; i < count; i++) {
    let text = "";
    const length = next() % maxFragments;
    for (let j = 0; j < length; j++) text += FRAGMENTS[next() % FRAGMENTS.length];
    texts.push(text);
  }
  return texts;
}

/** A run of `size` lowercase letters: one piece of the pattern, many merges. */
function letterRun(size: number, seed: number): string {
  let state = seed >>> 0;
  let text = "";
  for (let i = 0; i < size; i++) {
    state = (Math.imul(state, 1664525) + 1013904223) >>> 0;
    text += String.fromCharCode(97 + ((state >>> 8) % 26));
  }
  return text;
}

describe("createPieceTokenCounter with createBytePairCounter", () => {
  for (const name of ["o200k_base", "cl100k_base"] as const) {
    it(`counts exactly what js-tiktoken's encode(text, [], []) counts (${name})`, { timeout: 60_000 }, () => {
      const ranks = loadRanks(name);
      const reference = new Tiktoken(ranks);
      const countPiece = createBytePairCounter(ranks.bpe_ranks);
      const count = createPieceTokenCounter(countPiece, ranks.pat_str);
      const texts = [...TRICKY, ...randomTexts(3000, name.length), letterRun(1500, 7), letterRun(777, 8)];
      for (const text of texts) {
        const expected = reference.encode(text, [], []).length;
        expect(count(text), JSON.stringify(text.slice(0, 80))).toBe(expected);
        // Again, from the memo.
        expect(count(text), JSON.stringify(text.slice(0, 80))).toBe(expected);
      }
      // Pieces alone (no memo in between): words glued without spaces make long, many-merge pieces.
      for (const piece of randomTexts(500, 99, 12).map((text) => text.replace(/[^a-z]/g, ""))) {
        expect(countPiece(piece), piece).toBe(reference.encode(piece, [], []).length);
      }
    });
  }

  it("counts a piece of 200,000 letters in near-linear time (merges from a heap, not a scan)", {
    timeout: 20_000,
  }, () => {
    // js-tiktoken's scan takes 27 s for 16,000 letters here and grows with the square of the size.
    const ranks = loadRanks("o200k_base");
    const countPiece = createBytePairCounter(ranks.bpe_ranks);
    const run = letterRun(200_000, 3);
    const tokens = countPiece(run);
    expect(tokens).toBeGreaterThan(50_000);
    expect(tokens).toBeLessThan(200_000);
    expect(countPiece("=".repeat(200_000))).toBeLessThan(200_000 / 4);
  });

  it("counts each distinct piece once, long pieces every time, and starts over when the memo is full", () => {
    const pieces: string[] = [];
    const countPiece = (piece: string) => {
      pieces.push(piece);
      return piece.length;
    };
    const count = createPieceTokenCounter(countPiece, loadRanks("cl100k_base").pat_str, {
      maxPieceLength: 10,
      maxPieces: 3,
    });
    expect(count("hello world hello world")).toBe(23);
    expect(pieces).toEqual(["hello", " world", " hello"]);
    expect(count("hello world")).toBe(11);
    expect(pieces).toHaveLength(3);
    const long = `x${"y".repeat(20)}`;
    expect(count(`${long} ${long}`)).toBe(43);
    expect(pieces.slice(3)).toEqual([long, ` ${long}`]);
    // Full (3 pieces): a new one empties the memo, so "hello" is counted again afterwards.
    expect(count(" again")).toBe(6);
    expect(count("hello")).toBe(5);
    expect(pieces.slice(5)).toEqual([" again", "hello"]);
  });
});
