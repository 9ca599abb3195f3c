import { describe, expect, it } from "vitest";
import { parsePartialJson } from "./parse-partial-json";

describe("parsePartialJson", () => {
  it.each<[string, Record<string, unknown>]>([
    ['{"path":"a.ts"}', { path: "a.ts" }],
    ["", {}],
    ['{"pa', {}],
    ['{"path":"src/in', { path: "src/in" }],
    ['{"path":"a.ts","lim', { path: "a.ts" }],
    ['{"path":"a.ts","limit":', { path: "a.ts" }],
    ['{"path":"a.ts","limit":2', { path: "a.ts", limit: 2 }],
    ['{"items":[1,2,{"x":"y', { items: [1, 2, { x: "y" }] }],
    ['{"quote":"say \\"hi', { quote: 'say "hi' }],
    ['{"text":"a, b, c', { text: "a, b, c" }],
    ["[1,2]", {}],
    ["not json", {}],
  ])("parses %j", (text, expected) => {
    expect(parsePartialJson(text)).toEqual(expected);
  });
});
