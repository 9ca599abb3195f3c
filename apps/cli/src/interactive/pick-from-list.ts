import readline from "node:readline";
import { type PickKey, pickActionForKey } from "./picker/pick-action-for-key";
import { type PickItem, type PickListState, reducePickList, startPickList } from "./picker/reduce-pick-list";
import { renderPickList } from "./picker/render-pick-list";
import type { TerminalStyle } from "./terminal-style";

/** The terminal the picker draws on and reads keys from. */
export interface PickerTerminal {
  input: NodeJS.ReadableStream & { isTTY?: boolean; isRaw?: boolean; setRawMode?(mode: boolean): unknown };
  output: NodeJS.WritableStream & { isTTY?: boolean; columns?: number; rows?: number };
}

/** What {@link pickFromList} shows. */
export interface PickFromListOptions {
  /** The question above the rows. */
  title: string;
  /** The rows, in display order (at least one). */
  items: readonly PickItem[];
  /** The row highlighted at the start (the first row when absent or unknown). */
  selectedId?: string | null;
  style: TerminalStyle;
}

/** Lines the picker keeps free besides its rows: title, hint, and the line the prompt returns to. */
const RESERVED_LINES = 3;

/** True when {@link pickFromList} can run on `terminal` (both ends are terminals with raw mode). */
export function canPickFrom(terminal: PickerTerminal): boolean {
  return (
    terminal.input.isTTY === true &&
    terminal.output.isTTY === true &&
    typeof terminal.input.setRawMode === "function"
  );
}

function rowsFor(output: PickerTerminal["output"]): number {
  return Math.max(1, (output.rows || 20) - RESERVED_LINES);
}

/** Moves from the end of the `count` lines drawn last back to the start of the first, and clears. */
function eraseLines(count: number): string {
  if (count === 0) return "";
  return `\r${count > 1 ? `\u001b[${count - 1}A` : ""}\u001b[J`;
}

/**
 * Shows an arrow-key picker below the cursor and resolves with the id of the chosen row, or undefined
 * when the user cancels (Esc, Ctrl-C, Ctrl-D, or the input ends). The window fits the terminal height
 * and is redrawn in place; typing filters the rows. Only call it when {@link canPickFrom} is true.
 *
 * Contract: while it runs it owns the keyboard: the input's other `keypress` listeners (readline's)
 * are detached and raw mode is on, so Ctrl-C cancels the pick instead of reaching the app. When it
 * settles (also when drawing throws, which rejects) it erases everything it drew, shows the cursor,
 * restores the listeners and the previous raw mode, and pauses the input again if nobody was
 * listening before. Never writes a trailing newline: the cursor ends where the picker started.
 */
export function pickFromList(
  terminal: PickerTerminal,
  options: PickFromListOptions,
): Promise<string | undefined> {
  const { input, output } = terminal;
  if (options.items.length === 0) return Promise.resolve(undefined);
  readline.emitKeypressEvents(input);
  const saved = input.listeners("keypress") as Array<(...args: unknown[]) => void>;
  const wasRaw = input.isRaw === true;
  let state: PickListState = startPickList(options.items, {
    selectedId: options.selectedId ?? null,
    height: rowsFor(output),
  });
  let drawn = 0;
  const draw = () => {
    const lines = renderPickList(state, {
      title: options.title,
      style: options.style,
      width: output.columns || 80,
    });
    output.write(`${eraseLines(drawn)}${lines.join("\r\n")}`);
    drawn = lines.length;
  };

  return new Promise<string | undefined>((resolve, reject) => {
    let settled = false;
    const finish = (error: unknown, id?: string) => {
      if (settled) return;
      settled = true;
      input.off("keypress", onKeypress);
      input.off("end", onEnd);
      output.off("resize", onResize);
      try {
        output.write(`${eraseLines(drawn)}\u001b[?25h`);
      } finally {
        input.setRawMode?.(wasRaw);
        for (const listener of saved) input.on("keypress", listener);
        if (saved.length === 0) input.pause();
      }
      if (error === undefined) resolve(id);
      else reject(error);
    };
    const onKeypress = (text: string | undefined, key: PickKey | undefined) => {
      try {
        const action = pickActionForKey(text, key);
        if (!action) return;
        state = reducePickList(state, action);
        if (state.outcome) finish(undefined, state.outcome.kind === "select" ? state.outcome.id : undefined);
        else draw();
      } catch (error) {
        finish(error);
      }
    };
    const onEnd = () => finish(undefined);
    const onResize = () => {
      try {
        state = reducePickList(state, { type: "resize", height: rowsFor(output) });
        draw();
      } catch (error) {
        finish(error);
      }
    };
    try {
      input.removeAllListeners("keypress");
      input.on("keypress", onKeypress);
      input.on("end", onEnd);
      output.on("resize", onResize);
      input.setRawMode?.(true);
      input.resume();
      output.write("\u001b[?25l");
      draw();
    } catch (error) {
      finish(error);
    }
  });
}
