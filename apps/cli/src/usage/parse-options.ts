import { usageError } from "./usage-error";

/**
 * One option of a command:
 * - `boolean`: a flag (`--json`);
 * - `string`: needs a value (`--leaf ID`, `--leaf=ID`);
 * - `optional-string`: takes the next argument as its value unless it starts with `-` or is missing
 *   (`-p "prompt"`, or `-p` alone); `--name=VALUE` always gives a value.
 */
export interface OptionSpec {
  type: "boolean" | "string" | "optional-string";
  /** One-letter alias (`p` for `-p`). */
  short?: string;
  /** The value's name in messages (`ID`, `N`); default `VALUE`. */
  valueName?: string;
}

/** The options of one command, by long name (without `--`). */
export type OptionTable = Readonly<Record<string, OptionSpec>>;

/** What {@link parseOptions} found. */
export interface ParsedOptions {
  /** By long name: `true` for a flag or an optional-string given without value, else the string. */
  values: Record<string, string | true>;
  positionals: string[];
  /**
   * True when `--help` or `-h` appeared before `--`: the caller prints the command's help. The other
   * arguments are then not checked (values and positionals are empty).
   */
  help: boolean;
}

/**
 * Parses `args` against `table`. Options may come before, between or after positionals; `--` ends
 * the options. Never throws the parser's internal wording: every problem is a {@link usageError}
 * naming the option (`unknown option --bogus`, `--leaf needs a value (--leaf ID)`, `--json takes no
 * value`). A repeated option keeps its last value. Pure: does not read the process.
 * @throws CliError `CLI_USAGE`.
 */
export function parseOptions(args: readonly string[], table: OptionTable, command: string): ParsedOptions {
  const byShort = new Map<string, string>();
  for (const [name, spec] of Object.entries(table)) if (spec.short) byShort.set(spec.short, name);
  const values: Record<string, string | true> = {};
  const positionals: string[] = [];
  const end = args.indexOf("--");
  const help = (end === -1 ? args : args.slice(0, end)).some((arg) => arg === "--help" || arg === "-h");
  if (help) return { values, positionals, help };
  for (let index = 0; index < args.length; index++) {
    const arg = args[index] as string;
    if (arg === "--") {
      positionals.push(...args.slice(index + 1));
      break;
    }
    if (!arg.startsWith("-") || arg === "-") {
      positionals.push(arg);
      continue;
    }
    const equals = arg.indexOf("=");
    const written = equals === -1 ? arg : arg.slice(0, equals);
    const inline = equals === -1 ? undefined : arg.slice(equals + 1);
    const name = written.startsWith("--") ? written.slice(2) : byShort.get(written.slice(1));
    const spec = name === undefined || written === "-" ? undefined : table[name];
    if (name === undefined || spec === undefined || (!written.startsWith("--") && written.length !== 2)) {
      throw usageError(command, `unknown option ${written}`);
    }
    if (spec.type === "boolean") {
      if (inline !== undefined) throw usageError(command, `${written} takes no value`);
      values[name] = true;
      continue;
    }
    if (inline !== undefined) {
      values[name] = inline;
      continue;
    }
    const next = args[index + 1];
    if (next !== undefined && (!next.startsWith("-") || next === "-")) {
      values[name] = next;
      index++;
      continue;
    }
    if (spec.type === "optional-string") {
      values[name] = true;
      continue;
    }
    const valueName = spec.valueName ?? "VALUE";
    throw usageError(
      command,
      next === undefined
        ? `${written} needs a value (${written} ${valueName})`
        : `${written} needs a value (${written} ${valueName}); for a value starting with "-" write --${name}=${next}`,
    );
  }
  return { values, positionals, help };
}
