import type { PickAction } from "./reduce-pick-list";

/** A key press as `readline.emitKeypressEvents` reports it. */
export interface PickKey {
  name?: string;
  ctrl?: boolean;
  meta?: boolean;
  sequence?: string;
}

const NAMED: Record<string, PickAction["type"]> = {
  up: "up",
  down: "down",
  pageup: "page-up",
  pagedown: "page-down",
  home: "home",
  end: "end",
  return: "select",
  enter: "select",
  escape: "cancel",
  backspace: "backspace",
};

const CONTROL: Record<string, PickAction["type"]> = { c: "cancel", d: "cancel", p: "up", n: "down" };

/**
 * Maps a key press to a picker action: arrows, Ctrl-P/Ctrl-N, PgUp/PgDn, Home/End, Enter, Esc,
 * Ctrl-C and Ctrl-D (cancel), Backspace, and printable characters (typed into the filter). Returns
 * undefined for keys the picker ignores. Pure.
 */
export function pickActionForKey(text: string | undefined, key: PickKey | undefined): PickAction | undefined {
  if (key?.ctrl) {
    const type = key.name ? CONTROL[key.name] : undefined;
    return type ? ({ type } as PickAction) : undefined;
  }
  // A lone Esc arrives (after readline's escape timeout) as `escape` with `meta` set.
  if (key?.name === "escape") return { type: "cancel" };
  if (key?.meta) return undefined;
  const named = key?.name ? NAMED[key.name] : undefined;
  if (named) return { type: named } as PickAction;
  // biome-ignore lint/suspicious/noControlCharactersInRegex: printable means no control characters
  if (text && !/[\u0000-\u001f\u007f]/.test(text)) return { type: "type", text };
  return undefined;
}
