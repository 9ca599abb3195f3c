/** One row of the picker. */
export interface PickItem {
  /** What the picker resolves with when this row is chosen; unique within a list. */
  id: string;
  /** The row as shown: one line, no terminal escapes. */
  text: string;
  /** More text the filter also searches (the id and `text` are always searched). */
  searchText?: string;
}

/** How a pick ended. */
export type PickOutcome = { kind: "select"; id: string } | { kind: "cancel" };

/**
 * The picker's whole state. `cursor` and `top` are positions in `matches` (the items the filter
 * keeps, in list order); `top ≤ cursor < top + height` whenever there is a match.
 */
export interface PickListState {
  readonly items: readonly PickItem[];
  /** The filter typed so far (case-insensitive substring). */
  readonly query: string;
  /** Indexes into `items` of the rows matching `query`, in list order. */
  readonly matches: readonly number[];
  /** Position in `matches` of the highlighted row (0 when nothing matches). */
  readonly cursor: number;
  /** Position in `matches` of the first row shown. */
  readonly top: number;
  /** How many rows are shown at once (at least 1). */
  readonly height: number;
  /** Set once the user selected a row or cancelled; later actions change nothing. */
  readonly outcome?: PickOutcome;
}

/** What a key press asks the picker to do. */
export type PickAction =
  | { type: "up" | "down" | "page-up" | "page-down" | "home" | "end" | "backspace" | "select" | "cancel" }
  | { type: "type"; text: string }
  | { type: "resize"; height: number };

function matchesQuery(item: PickItem, query: string): boolean {
  if (!query) return true;
  const needle = query.toLowerCase();
  return [item.id, item.text, item.searchText ?? ""].some((text) => text.toLowerCase().includes(needle));
}

/** Keeps the cursor in range and the window around it. */
function settle(state: PickListState, cursor: number): PickListState {
  const count = state.matches.length;
  const height = Math.max(1, Math.floor(state.height));
  const clamped = count === 0 ? 0 : Math.min(Math.max(cursor, 0), count - 1);
  let top = Math.min(state.top, clamped);
  if (clamped >= top + height) top = clamped - height + 1;
  top = Math.max(0, Math.min(top, count - height));
  return { ...state, height, cursor: clamped, top };
}

function refilter(state: PickListState, query: string): PickListState {
  const highlighted = state.matches[state.cursor];
  const matches: number[] = [];
  state.items.forEach((item, index) => {
    if (matchesQuery(item, query)) matches.push(index);
  });
  const kept = highlighted === undefined ? -1 : matches.indexOf(highlighted);
  return settle({ ...state, query, matches, top: kept === -1 ? 0 : state.top }, Math.max(0, kept));
}

/**
 * Starts a picker over `items` with the row `selectedId` highlighted (the first row when absent or
 * unknown) and `height` rows visible (at most the number of items, at least 1). Pure.
 */
export function startPickList(
  items: readonly PickItem[],
  options: { selectedId?: string | null; height: number },
): PickListState {
  const start = Math.max(
    0,
    items.findIndex((item) => item.id === options.selectedId),
  );
  const height = Math.max(1, Math.min(options.height, items.length));
  // Center the starting row when it is far down the list, so some context shows on both sides.
  const top = Math.max(0, start - Math.floor(height / 2));
  return settle(
    { items, query: "", matches: items.map((_, index) => index), cursor: start, top, height },
    start,
  );
}

/**
 * Applies one action and returns the new state (the input is not mutated). Moves clamp at the ends
 * (no wrap-around); paging moves by `height`; typing appends to the filter and backspace removes its
 * last character, keeping the highlighted row when it still matches (else the first match); `select`
 * with no match does nothing; `resize` changes `height`. Once `outcome` is set the state is final.
 */
export function reducePickList(state: PickListState, action: PickAction): PickListState {
  if (state.outcome) return state;
  switch (action.type) {
    case "up":
      return settle(state, state.cursor - 1);
    case "down":
      return settle(state, state.cursor + 1);
    case "page-up":
      return settle(state, state.cursor - state.height);
    case "page-down":
      return settle(state, state.cursor + state.height);
    case "home":
      return settle(state, 0);
    case "end":
      return settle(state, state.matches.length - 1);
    case "type":
      return refilter(state, state.query + action.text);
    case "backspace":
      return state.query ? refilter(state, state.query.slice(0, -1)) : state;
    case "resize":
      return settle(
        { ...state, height: Math.max(1, Math.min(action.height, state.items.length)) },
        state.cursor,
      );
    case "cancel":
      return { ...state, outcome: { kind: "cancel" } };
    case "select": {
      const index = state.matches[state.cursor];
      const item = index === undefined ? undefined : state.items[index];
      return item ? { ...state, outcome: { kind: "select", id: item.id } } : state;
    }
  }
}
