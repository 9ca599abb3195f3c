import { describe, expect, it } from "vitest";
import { createTerminalStyle } from "../terminal-style";
import { reducePickList, startPickList } from "./reduce-pick-list";
import { PICK_LIST_HINT, renderPickList } from "./render-pick-list";

const items = ["alpha", "beta", "gamma", "delta"].map((text, index) => ({ id: `id${index}`, text }));

describe("renderPickList", () => {
  it("draws the title, the window with the highlighted row marked, and the hint (no colors)", () => {
    const state = startPickList(items, { selectedId: "id2", height: 3 });
    const lines = renderPickList(state, { title: "Pick one", style: createTerminalStyle(false), width: 40 });
    expect(lines).toEqual([
      "Pick one  3/4",
      "  beta",
      "▸ gamma".padEnd(39),
      "  delta",
      `${PICK_LIST_HINT.slice(0, 38)}…`,
    ]);
  });

  it("shows the filter, pads a short list, and says when nothing matches", () => {
    const style = createTerminalStyle(false);
    let state = reducePickList(startPickList(items, { height: 3 }), { type: "type", text: "ta" });
    let lines = renderPickList(state, { title: "Pick", style, width: 200 });
    expect(lines.slice(0, 4)).toEqual(["Pick  filter: ta  1/2", "▸ beta".padEnd(199), "  delta", ""]);
    state = reducePickList(state, { type: "type", text: "zz" });
    lines = renderPickList(state, { title: "Pick", style, width: 200 });
    expect(lines.slice(0, 4)).toEqual(["Pick  filter: tazz  0/0", "  (no match)", "", ""]);
  });

  it("uses inverse video for the highlighted row with colors, and clips long rows to the width", () => {
    const long = [{ id: "x", text: "y".repeat(100) }, ...items];
    const lines = renderPickList(startPickList(long, { height: 2 }), {
      title: "Pick",
      style: createTerminalStyle(true),
      width: 30,
    });
    expect(lines[1]).toBe(`\u001b[7m▸ ${"y".repeat(26)}…\u001b[27m`);
    expect(lines[2]).toBe("  alpha");
  });
});
