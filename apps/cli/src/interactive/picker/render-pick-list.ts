import { sanitizeTerminalText } from "../../format/sanitize-terminal-text";
import type { TerminalStyle } from "../terminal-style";
import type { PickListState } from "./reduce-pick-list";

/** How {@link renderPickList} draws. */
export interface RenderPickListOptions {
  /** The question shown above the rows. */
  title: string;
  style: TerminalStyle;
  /** Terminal width: every line is clipped to `width - 1` characters so that none wraps. */
  width: number;
}

/** The key help shown under the rows. */
export const PICK_LIST_HINT = "↑/↓ move · PgUp/PgDn · Home/End · type to filter · Enter select · Esc cancel";

function fit(raw: string, width: number): string {
  const text = sanitizeTerminalText(raw).replace(/[\t\n]/g, " ");
  return text.length <= width ? text : `${text.slice(0, Math.max(0, width - 1))}…`;
}

/**
 * The picker's lines: the title (with the filter and the position), exactly `state.height` rows
 * (the highlighted one marked `▸` and, with colors, in inverse video; blank lines pad a short
 * filtered list; `(no match)` when nothing matches), then the key hint. No line ends with a newline
 * and none is wider than `width - 1` visible characters. Pure.
 */
export function renderPickList(state: PickListState, options: RenderPickListOptions): string[] {
  const { style } = options;
  const width = Math.max(10, options.width - 1);
  const position = state.matches.length > 0 ? `${state.cursor + 1}/${state.matches.length}` : "0/0";
  const filter = state.query ? `  filter: ${state.query}` : "";
  const title = fit(`${options.title}${filter}`, width - position.length - 2);
  const lines = [`${style.bold(title)}  ${style.dim(position)}`];
  for (let row = 0; row < state.height; row++) {
    const index = state.matches[state.top + row];
    const item = index === undefined ? undefined : state.items[index];
    if (!item) {
      lines.push(row === 0 && state.matches.length === 0 ? style.dim("  (no match)") : "");
      continue;
    }
    const highlighted = state.top + row === state.cursor;
    const text = fit(`${highlighted ? "▸ " : "  "}${item.text}`, width);
    lines.push(highlighted ? style.inverse(text.padEnd(width)) : text);
  }
  lines.push(style.dim(fit(PICK_LIST_HINT, width)));
  return lines;
}
