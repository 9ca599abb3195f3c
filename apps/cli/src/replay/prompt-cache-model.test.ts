import { describe, expect, it } from "vitest";
import { ANTHROPIC_CACHE_RULES, OPENAI_CACHE_RULES } from "./price-table";
import { type CacheBlock, createPromptCacheModel } from "./prompt-cache-model";

/** Blocks whose prefix keys are the joined names so far ("s", "s|a", "s|a|b"). */
function blocks(...parts: Array<[string, number]>): CacheBlock[] {
  const names: string[] = [];
  return parts.map(([name, tokens]) => {
    names.push(name);
    return { prefixKey: names.join("|"), tokens };
  });
}

const MINUTE = 60_000;

describe("createPromptCacheModel (Anthropic rules)", () => {
  it("writes the whole prefix on the first request, then reads it when the next request extends it", () => {
    const cache = createPromptCacheModel(ANTHROPIC_CACHE_RULES);
    const first = blocks(["system", 2000], ["u1", 500]);
    expect(cache.account({ blocks: first, breakpoints: [0, 1], time: 0 })).toEqual({
      input: 0,
      cacheRead: 0,
      cacheWrite: 2500,
    });
    const second = blocks(["system", 2000], ["u1", 500], ["a1", 300], ["t1", 700]);
    // 2500 read (system + u1), 1000 written (a1 + t1).
    expect(cache.account({ blocks: second, breakpoints: [0, 3], time: MINUTE })).toEqual({
      input: 0,
      cacheRead: 2500,
      cacheWrite: 1000,
    });
  });

  it("writes again from the first changed block when an early message changes", () => {
    const cache = createPromptCacheModel(ANTHROPIC_CACHE_RULES);
    cache.account({
      blocks: blocks(["system", 2000], ["u1", 500], ["t1", 4000], ["u2", 100]),
      breakpoints: [0, 3],
      time: 0,
    });
    // t1 replaced by a placeholder: only the system prompt (its own breakpoint) is read.
    const edited = blocks(["system", 2000], ["u1", 500], ["t1-masked", 20], ["u2", 100], ["u3", 50]);
    expect(cache.account({ blocks: edited, breakpoints: [0, 4], time: MINUTE })).toEqual({
      input: 0,
      cacheRead: 2000,
      cacheWrite: 670,
    });
  });

  it("misses when the entry expired (5 minutes after its last use)", () => {
    const cache = createPromptCacheModel(ANTHROPIC_CACHE_RULES);
    const request = blocks(["system", 3000], ["u1", 500]);
    cache.account({ blocks: request, breakpoints: [0, 1], time: 0 });
    // Used at 4 minutes: the lifetime is refreshed to 9 minutes.
    expect(cache.account({ blocks: request, breakpoints: [0, 1], time: 4 * MINUTE }).cacheRead).toBe(3500);
    expect(cache.account({ blocks: request, breakpoints: [0, 1], time: 8 * MINUTE + 59_000 }).cacheRead).toBe(
      3500,
    );
    expect(cache.account({ blocks: request, breakpoints: [0, 1], time: 20 * MINUTE })).toEqual({
      input: 0,
      cacheRead: 0,
      cacheWrite: 3500,
    });
  });

  it("neither reads nor writes a prefix under 1024 tokens, and bills what follows the last breakpoint as input", () => {
    const cache = createPromptCacheModel(ANTHROPIC_CACHE_RULES);
    expect(
      cache.account({ blocks: blocks(["system", 600], ["u1", 300]), breakpoints: [0, 1], time: 0 }),
    ).toEqual({
      input: 900,
      cacheRead: 0,
      cacheWrite: 0,
    });
    expect(
      cache.account({ blocks: blocks(["system", 1500], ["u1", 300]), breakpoints: [0], time: 0 }),
    ).toEqual({
      input: 300,
      cacheRead: 0,
      cacheWrite: 1500,
    });
  });

  it("finds a hit only within 20 blocks before a breakpoint", () => {
    const cache = createPromptCacheModel({ ...ANTHROPIC_CACHE_RULES, minCacheableTokens: 1 });
    const base: Array<[string, number]> = [["u0", 100]];
    cache.account({ blocks: blocks(...base), breakpoints: [0], time: 0 });
    const long: Array<[string, number]> = [...base];
    for (let index = 1; index <= 25; index++) long.push([`m${index}`, 10]);
    // The breakpoint sits on block 25; block 0 is 25 blocks back: not looked at.
    expect(cache.account({ blocks: blocks(...long), breakpoints: [25], time: MINUTE }).cacheRead).toBe(0);
  });
});

describe("createPromptCacheModel (OpenAI rules)", () => {
  it("reads the longest common prefix in 128-token steps and never bills a write", () => {
    const cache = createPromptCacheModel(OPENAI_CACHE_RULES);
    expect(
      cache.account({ blocks: blocks(["system", 1000], ["u1", 200]), breakpoints: [], time: 0 }),
    ).toEqual({
      input: 1200,
      cacheRead: 0,
      cacheWrite: 0,
    });
    // 1200 cached → 1152 (9 × 128) read.
    expect(
      cache.account({
        blocks: blocks(["system", 1000], ["u1", 200], ["a1", 300]),
        breakpoints: [],
        time: MINUTE,
      }),
    ).toEqual({ input: 348, cacheRead: 1152, cacheWrite: 0 });
  });

  it("reads nothing after a change in the first block or after the lifetime", () => {
    const cache = createPromptCacheModel(OPENAI_CACHE_RULES);
    cache.account({ blocks: blocks(["system", 2000], ["u1", 200]), breakpoints: [], time: 0 });
    expect(
      cache.account({ blocks: blocks(["system2", 2000], ["u1", 200]), breakpoints: [], time: 1 }).cacheRead,
    ).toBe(0);
    expect(
      cache.account({ blocks: blocks(["system", 2000], ["u1", 200]), breakpoints: [], time: 10 * MINUTE })
        .cacheRead,
    ).toBe(0);
  });
});
