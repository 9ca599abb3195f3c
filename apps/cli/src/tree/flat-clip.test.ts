import { describe, expect, it } from "vitest";
import { clip } from "../format/message-preview";
import { FlatClip } from "./flat-clip";
import { JsonLineScanner } from "./json-line-scanner";

/** A small deterministic generator (mulberry32), so a failure can be reproduced. */
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

const PLAIN = ["word", "fix the bug", " ", "  ", "\n", "\t", "é", "日本語", "😀", "\ud800", "\udc00", '"'];
const HOSTILE = ["\r\n", "\u000b", "\u001b[31m", "\u009b2J", "\u0000", "\u007f", "\u202e", "\u2066"];
const SPACES = ["\u00a0", "\u3000", "\u2028", "\ufeff", "\u2000", "\u1680", "\\", "/", "→", "a".repeat(90)];

function text(rng: () => number, hostile: boolean): string {
  const pieces = hostile ? [...PLAIN, ...SPACES, ...HOSTILE] : [...PLAIN, ...SPACES];
  let out = "";
  const count = Math.floor(rng() * 40);
  for (let index = 0; index < count; index++) out += pieces[Math.floor(rng() * pieces.length)];
  return out;
}

/**
 * Scans a line holding the JSON strings `jsons` (as written: `"…"`) in an array, as the line describer
 * scans an entry's line; returns the scanner and each string's contents as `[from, to)` in its bytes.
 */
function scanStrings(jsons: readonly (string | Buffer)[]): {
  scanner: JsonLineScanner;
  positions: [number, number][];
} {
  const pieces: Buffer[] = [Buffer.from("[")];
  const positions: [number, number][] = [];
  const scanner = new JsonLineScanner();
  let at = 1;
  for (const [index, json] of jsons.entries()) {
    const bytes = typeof json === "string" ? Buffer.from(json) : json;
    if (index > 0) {
      pieces.push(Buffer.from(","));
      at++;
    }
    positions.push([scanner.start + at + 1, scanner.start + at + bytes.length - 1]);
    pieces.push(bytes);
    at += bytes.length;
  }
  pieces.push(Buffer.from("]"));
  expect(scanner.scan(Buffer.concat(pieces))).toBe("valid");
  return { scanner, positions };
}

/**
 * Gives each part to a `FlatClip` (a string, or a JSON string's contents in the scanned line, written
 * plainly or with every non-ASCII character as a \u escape), as the line describer does; returns the
 * result, redone with `whole` when it failed.
 */
function flatten(parts: readonly string[], asJson: readonly number[], width: number): string {
  const jsons = parts.map((part, index) =>
    asJson[index] === 2
      ? JSON.stringify(part).replace(
          /[\u007f-\uffff]/g,
          (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, "0")}`,
        )
      : JSON.stringify(part),
  );
  const { scanner, positions } = scanStrings(jsons);
  const flat = new FlatClip(scanner);
  const give = () => {
    for (const [index, part] of parts.entries()) {
      if (flat.full) break;
      const [from, to] = positions[index] as [number, number];
      if (asJson[index] === 0) flat.addString(part);
      else flat.addJson(from, to);
    }
  };
  flat.reset(width);
  give();
  if (!flat.failed) return flat.result();
  flat.reset(width, true);
  give();
  return flat.result();
}

/** What a `FlatClip` gives for one JSON string as written (bytes), the fast way; `undefined` when it failed. */
function flattenJson(json: string | Buffer, width: number): string | undefined {
  const { scanner, positions } = scanStrings([json]);
  const flat = new FlatClip(scanner).reset(width);
  const [from, to] = positions[0] as [number, number];
  flat.addJson(from, to);
  return flat.failed ? undefined : flat.result();
}

describe("FlatClip", () => {
  it("gives clip of the parts, from strings and JSON bytes, plain and hostile", () => {
    const rng = random(7);
    let fast = 0;
    for (let round = 0; round < 4000; round++) {
      const hostile = rng() < 0.3;
      const parts = Array.from({ length: 1 + Math.floor(rng() * 4) }, () => text(rng, hostile));
      const asJson = parts.map(() => Math.floor(rng() * 3));
      const width = 8 + Math.floor(rng() * 150);
      expect(flatten(parts, asJson, width), JSON.stringify({ parts, width })).toBe(clip(parts, width));
      if (!hostile) fast++;
    }
    expect(fast).toBeGreaterThan(2000);
  });

  it("is full once the result is decided, and fails at a control character", () => {
    const flat = new FlatClip(new JsonLineScanner()).reset(10);
    flat.addString("hello   world");
    expect(flat.full).toBe(true);
    flat.addString("\u001b[31m ignored once full");
    expect(flat.failed).toBe(false);
    expect(flat.result()).toBe(clip("hello   world", 10));
    flat.reset(40);
    flat.addString("red \u001b[31mtext");
    expect(flat.failed).toBe(true);
  });

  it("reads a long JSON string only as far as the preview needs", () => {
    // Invalid UTF-8 far after the preview: never looked at, so the fast way still answers.
    const json = Buffer.concat([Buffer.from(`"${"word ".repeat(40)}`), Buffer.from([0xff, 0x22])]);
    expect(flattenJson(json, 30)).toBe(clip("word ".repeat(40), 30));
  });

  it("decodes every escape and UTF-8 length the fast way, and leaves what it cannot hold to the slow way", () => {
    expect(flattenJson('"a\\/b\\u0041\\u00e9\\u20ac\\"\\\\c"', 40)).toBe('a/bAé€"\\c');
    expect(flattenJson('"x\\u00a0\\u3000y\\u2028z \\t\\n w"', 40)).toBe("x y z w");
    expect(flattenJson(`"${"é日😀".repeat(3)}"`, 40)).toBe("é日😀".repeat(3));
    // Two code units for a character above U+FFFF: the width counts them as `clip` does.
    expect(flattenJson(`"${"😀".repeat(10)}"`, 9)).toBe(clip("😀".repeat(10), 9));
    // A C1 control, a bidirectional control, an escaped surrogate, \r, \b and \f: the slow way.
    for (const json of ['"a\u0085b"', '"a\u202eb"', '"a\\ud83d\\ude00"', '"a\\rb"', '"a\\bb"', '"a\\fb"'])
      expect(flattenJson(json, 40), json).toBeUndefined();
    // Bytes that are not UTF-8: a lone continuation byte, an overlong form, an encoded surrogate, a lead
    // above U+10FFFF, a sequence cut short by the closing quote, and DEL.
    for (const bytes of [
      [0x80],
      [0xc0, 0x80],
      [0xed, 0xa0, 0x80],
      [0xf5, 0x80, 0x80, 0x80],
      [0xe6, 0x97],
      [0x7f],
    ])
      expect(flattenJson(Buffer.from([0x22, 0x61, ...bytes, 0x22]), 40), String(bytes)).toBeUndefined();
  });

  it("makes a text up to the widest its region holds, and a wider one the slow way", () => {
    // Three bytes per code unit: the fullest a region gets. A string part and a JSON part, in turn.
    const text = "日本語 ".repeat(2000);
    for (const width of [5999, 6000]) {
      expect(flattenJson(JSON.stringify(text), width)).toBe(clip(text, width));
      expect(flatten([text, text], [0, 1], width)).toBe(clip([text, text], width));
      expect(flatten([text, text], [1, 0], width)).toBe(clip([text, text], width));
    }
    expect(flattenJson(JSON.stringify(text), 6001)).toBeUndefined();
    expect(flatten([text, text], [0, 1], 6001)).toBe(clip([text, text], 6001));
  });

  it("keeps two texts apart in the scanner's memory (a tool call's argument within an assistant's text)", () => {
    const { scanner, positions } = scanStrings([JSON.stringify("first text"), JSON.stringify("second text")]);
    const outer = new FlatClip(scanner, 0).reset(40);
    const inner = new FlatClip(scanner, 1).reset(40);
    outer.addJson(...(positions[0] as [number, number]));
    inner.addJson(...(positions[1] as [number, number]));
    outer.addString(" and more");
    expect(inner.result()).toBe("second text");
    expect(outer.result()).toBe("first text and more");
  });
});
