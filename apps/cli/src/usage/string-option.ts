import type { ParsedOptions } from "./parse-options";

/**
 * The string value of option `name`, or undefined when absent; an optional-string option given
 * without a value (`true`) is undefined too.
 */
export function stringOption(parsed: ParsedOptions, name: string): string | undefined {
  const value = parsed.values[name];
  return typeof value === "string" ? value : undefined;
}
