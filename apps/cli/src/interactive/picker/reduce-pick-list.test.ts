import { describe, expect, it } from "vitest";
import {
  type PickAction,
  type PickItem,
  type PickListState,
  reducePickList,
  startPickList,
} from "./reduce-pick-list";

const items: PickItem[] = Array.from({ length: 10 }, (_, index) => ({
  id: `id${index}`,
  text: `row ${index}${index === 7 ? " banana" : ""}`,
  ...(index === 3 ? { searchText: "hidden apple" } : {}),
}));

function run(state: PickListState, ...actions: PickAction["type"][]): PickListState {
  return actions.reduce((current, type) => reducePickList(current, { type } as PickAction), state);
}

/** The highlighted item's id and the visible ids. */
function view(state: PickListState): { at: string | undefined; shown: string[] } {
  const shown = state.matches
    .slice(state.top, state.top + state.height)
    .map((index) => items[index]?.id ?? "?");
  const index = state.matches[state.cursor];
  return { at: index === undefined ? undefined : items[index]?.id, shown };
}

describe("startPickList", () => {
  it("starts on the selected row with the window around it", () => {
    const state = startPickList(items, { selectedId: "id9", height: 4 });
    expect(view(state)).toEqual({ at: "id9", shown: ["id6", "id7", "id8", "id9"] });
    expect(view(startPickList(items, { selectedId: "id5", height: 4 }))).toEqual({
      at: "id5",
      shown: ["id3", "id4", "id5", "id6"],
    });
  });

  it("starts on the first row for an unknown id and never shows more rows than items", () => {
    const state = startPickList(items.slice(0, 2), { selectedId: "nope", height: 10 });
    expect(state.height).toBe(2);
    expect(view(state).at).toBe("id0");
  });
});

describe("reducePickList", () => {
  it("moves, clamps at both ends and scrolls the window with the cursor", () => {
    let state = startPickList(items, { selectedId: "id0", height: 3 });
    state = run(state, "up");
    expect(view(state)).toEqual({ at: "id0", shown: ["id0", "id1", "id2"] });
    state = run(state, "down", "down", "down");
    expect(view(state)).toEqual({ at: "id3", shown: ["id1", "id2", "id3"] });
    state = run(state, "end", "down");
    expect(view(state)).toEqual({ at: "id9", shown: ["id7", "id8", "id9"] });
    state = run(state, "up", "up", "up");
    expect(view(state)).toEqual({ at: "id6", shown: ["id6", "id7", "id8"] });
    state = run(state, "home");
    expect(view(state)).toEqual({ at: "id0", shown: ["id0", "id1", "id2"] });
  });

  it("pages by the window height", () => {
    let state = startPickList(items, { selectedId: "id0", height: 4 });
    state = run(state, "page-down");
    expect(view(state).at).toBe("id4");
    state = run(state, "page-down", "page-down");
    expect(view(state)).toEqual({ at: "id9", shown: ["id6", "id7", "id8", "id9"] });
    state = run(state, "page-up");
    expect(view(state).at).toBe("id5");
  });

  it("filters by id, text or search text, case-insensitively, and backspace widens again", () => {
    let state = startPickList(items, { selectedId: "id9", height: 4 });
    state = reducePickList(state, { type: "type", text: "BAN" });
    expect(state.query).toBe("BAN");
    expect(view(state)).toEqual({ at: "id7", shown: ["id7"] });
    state = run(state, "backspace", "backspace", "backspace");
    expect(state.query).toBe("");
    expect(view(state)).toEqual({ at: "id7", shown: ["id4", "id5", "id6", "id7"] });
    state = reducePickList(state, { type: "type", text: "apple" });
    expect(view(state)).toEqual({ at: "id3", shown: ["id3"] });
    state = reducePickList(startPickList(items, { selectedId: "id2", height: 4 }), {
      type: "type",
      text: "id",
    });
    expect(view(state).at).toBe("id2");
  });

  it("keeps the highlighted row while it matches; with no match, select does nothing", () => {
    let state = startPickList(items, { selectedId: "id7", height: 4 });
    state = reducePickList(state, { type: "type", text: "row" });
    expect(view(state).at).toBe("id7");
    state = reducePickList(state, { type: "type", text: "zzz" });
    expect(state.matches).toEqual([]);
    expect(run(state, "select", "down", "up").outcome).toBeUndefined();
    state = run(state, "backspace", "backspace", "backspace");
    expect(view(state).at).toBe("id0");
    expect(state.query).toBe("row");
  });

  it("ends with select or cancel, after which nothing changes", () => {
    const start = startPickList(items, { selectedId: "id4", height: 3 });
    const selected = run(start, "down", "select");
    expect(selected.outcome).toEqual({ kind: "select", id: "id5" });
    expect(run(selected, "up", "cancel")).toBe(selected);
    expect(run(start, "cancel").outcome).toEqual({ kind: "cancel" });
  });

  it("resizes the window and keeps the cursor visible", () => {
    let state = startPickList(items, { selectedId: "id9", height: 5 });
    state = reducePickList(state, { type: "resize", height: 2 });
    expect(view(state)).toEqual({ at: "id9", shown: ["id8", "id9"] });
    state = reducePickList(state, { type: "resize", height: 50 });
    expect(state.height).toBe(10);
    expect(view(state).shown).toHaveLength(10);
  });
});
