import { describe, expect, it } from "vitest";
import { clip } from "../format/message-preview";
import { FlatClip } from "./flat-clip";

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
 * Gives each part to `flat` (a string, or a JSON string's contents in `bytes`, written plainly or with
 * every non-ASCII character as a \u escape), as the line describer does; returns the result, redone
 * with `whole` when it failed.
 */
function flatten(parts: readonly string[], asJson: readonly number[], width: number): string {
  const flat = new FlatClip();
  let bytes = Buffer.alloc(0);
  const positions: [number, number][] = [];
  let line = "";
  for (const [index, part] of parts.entries()) {
    const json =
      asJson[index] === 2
        ? JSON.stringify(part).replace(
            /[\u007f-\uffff]/g,
            (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, "0")}`,
          )
        : JSON.stringify(part);
    const from = Buffer.byteLength(line) + 1;
    line += json;
    positions.push([from, Buffer.byteLength(line) - 1]);
  }
  bytes = Buffer.from(line);
  const give = () => {
    for (const [index, part] of parts.entries()) {
      if (flat.full) break;
      const [from, to] = positions[index] as [number, number];
      if (asJson[index] === 0) flat.addString(part);
      else flat.addJson(from, to);
    }
  };
  flat.reset(width, bytes);
  give();
  if (!flat.failed) return flat.result();
  flat.reset(width, bytes, true);
  give();
  return flat.result();
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
    const flat = new FlatClip().reset(10, Buffer.alloc(0));
    flat.addString("hello   world");
    expect(flat.full).toBe(true);
    flat.addString("\u001b[31m ignored once full");
    expect(flat.failed).toBe(false);
    expect(flat.result()).toBe(clip("hello   world", 10));
    flat.reset(40, Buffer.alloc(0));
    flat.addString("red \u001b[31mtext");
    expect(flat.failed).toBe(true);
  });

  it("reads a long JSON string only as far as the preview needs", () => {
    // Invalid UTF-8 far after the preview: never looked at, so the fast way still answers.
    const line = Buffer.concat([Buffer.from(`"${"word ".repeat(40)}`), Buffer.from([0xff, 0x22])]);
    const flat = new FlatClip().reset(30, line);
    flat.addJson(1, line.length - 1);
    expect(flat.failed).toBe(false);
    expect(flat.result()).toBe(clip("word ".repeat(40), 30));
  });
});
