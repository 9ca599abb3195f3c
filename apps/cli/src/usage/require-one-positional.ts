import type { ParsedOptions } from "./parse-options";
import { usageError } from "./usage-error";

/**
 * The one positional argument `command` takes (`arbor tree <session>`); with `what` undefined, the
 * command takes none and undefined is returned.
 * @throws CliError `CLI_USAGE` when it is missing, or followed by another one.
 */
export function requireOnePositional(
  command: string,
  parsed: ParsedOptions,
  what: string | undefined,
): string | undefined {
  const [value, extra] = parsed.positionals;
  if (what === undefined) {
    if (value !== undefined) throw usageError(command, `unexpected argument "${value}"`);
    return undefined;
  }
  if (value === undefined) throw usageError(command, `missing <${what}> (arbor ${command} <${what}>)`);
  if (extra !== undefined) throw usageError(command, `unexpected argument "${extra}"`);
  return value;
}
