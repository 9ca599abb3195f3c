/** Text styling for the terminal UI; every function is the identity when colors are off. */
export interface TerminalStyle {
  bold(text: string): string;
  dim(text: string): string;
  red(text: string): string;
  green(text: string): string;
  yellow(text: string): string;
  cyan(text: string): string;
  magenta(text: string): string;
  /** Swaps foreground and background (the highlighted row of a picker). */
  inverse(text: string): string;
}

const wrap = (open: number, close: number) => (text: string) => `\u001b[${open}m${text}\u001b[${close}m`;
const identity = (text: string) => text;

/** Styles with colors on or off (see `colorsEnabled` for FORCE_COLOR and NO_COLOR). */
export function createTerminalStyle(enabled: boolean): TerminalStyle {
  if (!enabled) {
    return {
      bold: identity,
      dim: identity,
      red: identity,
      green: identity,
      yellow: identity,
      cyan: identity,
      magenta: identity,
      inverse: identity,
    };
  }
  return {
    bold: wrap(1, 22),
    dim: wrap(2, 22),
    red: wrap(31, 39),
    green: wrap(32, 39),
    yellow: wrap(33, 39),
    cyan: wrap(36, 39),
    magenta: wrap(35, 39),
    inverse: wrap(7, 27),
  };
}
