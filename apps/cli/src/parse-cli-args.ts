import { type ParseArgsConfig, parseArgs } from "node:util";
import { CliError } from "./cli-error";

/** Options shared by the agent modes (interactive and print). */
export interface AgentCommandOptions {
  prompt: string | undefined;
  json: boolean;
  provider: string | undefined;
  model: string | undefined;
  baseUrl: string | undefined;
  sessionPath: string | undefined;
  continueRecent: boolean;
  resume: boolean;
  noSession: boolean;
  thinking: string | undefined;
  /** `--trust-project`: load the project configuration for this run, whatever was decided before. */
  trustProject: boolean;
}

/** The command the arguments select. */
export type CliCommand =
  | { kind: "help" }
  | { kind: "version" }
  | {
      kind: "inspect";
      file: string;
      leafId: string | undefined;
      keepRecentTokens: number | undefined;
      json: boolean;
      full: boolean;
    }
  | { kind: "tree"; file: string }
  | {
      kind: "export";
      file: string;
      leafId: string | undefined;
      format: "html" | "md";
      output: string | undefined;
    }
  | {
      kind: "compact";
      file: string;
      offline: boolean;
      keepRecentTokens: number | undefined;
      instructions: string | undefined;
      provider: string | undefined;
      model: string | undefined;
      baseUrl: string | undefined;
    }
  | { kind: "trust"; trust: "trusted" | "untrusted"; folder: string | undefined; list: boolean }
  | ({ kind: "print" } & AgentCommandOptions)
  | ({ kind: "interactive" } & AgentCommandOptions);

function parseTokenCount(flag: string, value: string | undefined): number | undefined {
  if (value === undefined) return undefined;
  const parsed = Number(value);
  if (!Number.isSafeInteger(parsed) || parsed < 0) {
    throw new CliError("CLI_USAGE", `${flag} expects a non-negative integer, got "${value}"`);
  }
  return parsed;
}

/** `--base-url`: an http(s) URL, else a usage error. */
function parseBaseUrl(value: string | undefined): string | undefined {
  if (value === undefined) return undefined;
  let url: URL | undefined;
  try {
    url = new URL(value);
  } catch {
    url = undefined;
  }
  if (url === undefined || (url.protocol !== "http:" && url.protocol !== "https:")) {
    throw new CliError(
      "CLI_USAGE",
      `--base-url expects an http:// or https:// URL such as http://127.0.0.1:8080/v1, got "${value}"`,
    );
  }
  return value;
}

function requireFile(command: string, positionals: string[]): string {
  const [file, extra] = positionals;
  if (file === undefined)
    throw new CliError(
      "CLI_USAGE",
      `arbor ${command} needs a session file (arbor ${command} <session.jsonl>)`,
    );
  if (extra !== undefined)
    throw new CliError("CLI_USAGE", `arbor ${command}: unexpected argument "${extra}"`);
  return file;
}

function parseStrict(args: readonly string[], options: NonNullable<ParseArgsConfig["options"]>) {
  try {
    return parseArgs({ args: [...args], options, allowPositionals: true, strict: true });
  } catch (error) {
    throw new CliError("CLI_USAGE", (error as Error).message.replace(/\. To specify a positional.*$/s, ""));
  }
}

/**
 * Parses command-line arguments into a {@link CliCommand}.
 * @throws CliError `CLI_USAGE` for unknown flags, missing or extra arguments, or bad values.
 */
export function parseCliArgs(args: readonly string[]): CliCommand {
  const [first, ...rest] = args;
  if (first === "--help" || first === "-h" || first === "help") return { kind: "help" };
  if (first === "--version" || first === "-v") return { kind: "version" };
  if (first === "inspect") {
    const { values, positionals } = parseStrict(rest, {
      leaf: { type: "string" },
      "keep-recent-tokens": { type: "string" },
      json: { type: "boolean" },
      full: { type: "boolean" },
    });
    return {
      kind: "inspect",
      file: requireFile("inspect", positionals),
      leafId: values.leaf as string | undefined,
      keepRecentTokens: parseTokenCount(
        "--keep-recent-tokens",
        values["keep-recent-tokens"] as string | undefined,
      ),
      json: values.json === true,
      full: values.full === true,
    };
  }
  if (first === "tree") {
    const { positionals } = parseStrict(rest, {});
    return { kind: "tree", file: requireFile("tree", positionals) };
  }
  if (first === "export") {
    const { values, positionals } = parseStrict(rest, {
      leaf: { type: "string" },
      html: { type: "boolean" },
      md: { type: "boolean" },
      output: { type: "string", short: "o" },
    });
    if (values.html === true && values.md === true) {
      throw new CliError("CLI_USAGE", "arbor export: use either --html or --md, not both");
    }
    return {
      kind: "export",
      file: requireFile("export", positionals),
      leafId: values.leaf as string | undefined,
      format: values.md === true ? "md" : "html",
      output: values.output as string | undefined,
    };
  }
  if (first === "compact") {
    const { values, positionals } = parseStrict(rest, {
      offline: { type: "boolean" },
      "keep-recent-tokens": { type: "string" },
      instructions: { type: "string" },
      provider: { type: "string" },
      model: { type: "string" },
      "base-url": { type: "string" },
    });
    return {
      kind: "compact",
      file: requireFile("compact", positionals),
      offline: values.offline === true,
      keepRecentTokens: parseTokenCount(
        "--keep-recent-tokens",
        values["keep-recent-tokens"] as string | undefined,
      ),
      instructions: values.instructions as string | undefined,
      provider: values.provider as string | undefined,
      model: values.model as string | undefined,
      baseUrl: parseBaseUrl(values["base-url"] as string | undefined),
    };
  }
  if (first === "trust" || first === "untrust") {
    const { values, positionals } = parseStrict(rest, first === "trust" ? { list: { type: "boolean" } } : {});
    const [folder, extra] = positionals;
    if (extra !== undefined)
      throw new CliError("CLI_USAGE", `arbor ${first}: unexpected argument "${extra}"`);
    if (values.list === true && folder !== undefined) {
      throw new CliError("CLI_USAGE", "arbor trust --list takes no folder");
    }
    return {
      kind: "trust",
      trust: first === "trust" ? "trusted" : "untrusted",
      folder,
      list: values.list === true,
    };
  }
  const { values, positionals } = parseStrict(args, {
    print: { type: "string", short: "p" },
    json: { type: "boolean" },
    provider: { type: "string" },
    model: { type: "string" },
    "base-url": { type: "string" },
    session: { type: "string" },
    continue: { type: "boolean", short: "c" },
    resume: { type: "boolean", short: "r" },
    "no-session": { type: "boolean" },
    thinking: { type: "string" },
    "trust-project": { type: "boolean" },
  });
  if (positionals.length > 0) {
    throw new CliError("CLI_USAGE", `unknown command "${positionals[0]}" (try arbor --help)`);
  }
  const sessionFlags = [
    values.session !== undefined,
    values.continue === true,
    values.resume === true,
    values["no-session"] === true,
  ];
  if (sessionFlags.filter(Boolean).length > 1) {
    throw new CliError("CLI_USAGE", "use only one of --session, --continue, --resume and --no-session");
  }
  const options: AgentCommandOptions = {
    prompt: values.print as string | undefined,
    json: values.json === true,
    provider: values.provider as string | undefined,
    model: values.model as string | undefined,
    baseUrl: parseBaseUrl(values["base-url"] as string | undefined),
    sessionPath: values.session as string | undefined,
    continueRecent: values.continue === true,
    resume: values.resume === true,
    noSession: values["no-session"] === true,
    thinking: values.thinking as string | undefined,
    trustProject: values["trust-project"] === true,
  };
  if (options.prompt !== undefined && options.prompt.trim() === "") {
    throw new CliError("CLI_USAGE", '-p needs a prompt: the prompt given is empty (arbor -p "what to do")');
  }
  if (options.prompt !== undefined) return { kind: "print", ...options };
  if (options.json)
    throw new CliError("CLI_USAGE", '--json needs print mode (-p "prompt") or an offline command');
  return { kind: "interactive", ...options };
}
