import { usageError } from "./usage-error";

/**
 * A non-negative integer option value (`--keep-recent-tokens 500`), or undefined when absent.
 * @throws CliError `CLI_USAGE` naming the flag and the value.
 */
export function tokenCountOption(
  command: string,
  flag: string,
  value: string | undefined,
): number | undefined {
  if (value === undefined) return undefined;
  const parsed = Number(value);
  if (value.trim() === "" || !Number.isSafeInteger(parsed) || parsed < 0) {
    throw usageError(command, `${flag} expects a non-negative integer, got "${value}"`);
  }
  return parsed;
}
