import type { CliIo } from "../cli-io";
import { baseUrlOption } from "./base-url-option";
import type { CommandUsage } from "./command-usage";
import { formatMainHelp } from "./format-main-help";
import type { ParsedOptions } from "./parse-options";
import { stringOption } from "./string-option";
import { usageError } from "./usage-error";

/** Options shared by the agent modes (interactive and print). */
export interface AgentCommandOptions {
  /** `-p PROMPT`; undefined for `-p` without a prompt (it is then read from stdin) and in interactive mode. */
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
  /** `--system-prompt FILE|TEXT`: replaces arbor's own instructions. */
  systemPrompt: string | undefined;
  /** `--append-system-prompt FILE|TEXT`: added after the context files. */
  appendSystemPrompt: string | undefined;
  /** `--no-context-files`: no AGENTS.md / CLAUDE.md. */
  noContextFiles: boolean;
}

/** The input of the agent: print mode (`-p`) or the interactive mode. */
export type AgentInput =
  | ({ kind: "print" } & AgentCommandOptions)
  | ({ kind: "interactive" } & AgentCommandOptions);

/** The thinking levels `--thinking` accepts. */
export const THINKING_LEVELS: readonly string[] = ["off", "minimal", "low", "medium", "high"];

const OPTIONS = {
  print: { type: "optional-string", short: "p", valueName: "PROMPT" },
  json: { type: "boolean" },
  provider: { type: "string", valueName: "NAME" },
  model: { type: "string", valueName: "ID" },
  "base-url": { type: "string", valueName: "URL" },
  session: { type: "string", valueName: "PATH" },
  continue: { type: "boolean", short: "c" },
  resume: { type: "boolean", short: "r" },
  "no-session": { type: "boolean" },
  thinking: { type: "string", valueName: "LEVEL" },
  "trust-project": { type: "boolean" },
  "system-prompt": { type: "string", valueName: "FILE|TEXT" },
  "append-system-prompt": { type: "string", valueName: "FILE|TEXT" },
  "no-context-files": { type: "boolean" },
} as const;

const HELP = {
  usage: `  arbor [options]                 the interactive agent
  arbor -p [PROMPT] [options]     print mode: run to completion, print the final answer`,
  options: `Agent options:
  -p, --print [PROMPT]   print mode. The prompt is PROMPT, or what is piped in (echo "…" | arbor -p).
                         With both, the piped text is attached after PROMPT as context, wrapped in
                         <stdin>…</stdin> (arbor -p "summarize" < log.txt). A prompt starting with
                         "-" is written --print=-…
  --json                 print mode: stream every event as one JSON line instead of the answer
  --model ID             a model id or provider/id (see arbor models)
  --provider NAME        anthropic, openai, or a provider from a models file
  --base-url URL         replace the model's endpoint (an http:// or https:// URL)
  --thinking LEVEL       off, minimal, low, medium, high
  --session PATH|ID      use this session file (created if missing), or the session with this
                         short id (arbor sessions), or postgresql://host/database#<session-id>
                         (a session in a database, created if missing; one writer at a time)
  -c, --continue         continue the most recent session of this folder
  -r, --resume           pick a session of this folder to resume (interactive)
  --no-session           keep the session in memory only
  --trust-project        load this folder's project configuration for this run (nothing saved)

System prompt (arbor inspect and /session show its sections):
  --system-prompt FILE|TEXT          replace arbor's own instructions (a file's content, or the text)
  --append-system-prompt FILE|TEXT   add after the context files
  --no-context-files                 load no AGENTS.md / CLAUDE.md
  Context files, in this order: $ARBOR_HOME/AGENTS.md, then AGENTS.md (or CLAUDE.md where a folder
  has no AGENTS.md) from the repository root (or home) down to this folder; each up to 64 KiB.
  They are plain text for the model, loaded whatever the folder's trust.`,
};

function toAgentInput(parsed: ParsedOptions): AgentInput {
  const [word] = parsed.positionals;
  if (word !== undefined) throw usageError("", `unknown command "${word}"`);
  const { values } = parsed;
  const sessionFlags = [values.session, values.continue, values.resume, values["no-session"]];
  if (sessionFlags.filter((value) => value !== undefined).length > 1) {
    throw usageError("", "use only one of --session, --continue, --resume and --no-session");
  }
  const prompt = stringOption(parsed, "print");
  if (prompt !== undefined && prompt.trim() === "") {
    throw usageError("", '-p needs a prompt: the prompt given is empty (arbor -p "what to do")');
  }
  const thinking = stringOption(parsed, "thinking");
  if (thinking !== undefined && !THINKING_LEVELS.includes(thinking)) {
    throw usageError("", `--thinking expects one of ${THINKING_LEVELS.join(", ")}, got "${thinking}"`);
  }
  const options: AgentCommandOptions = {
    prompt,
    json: values.json === true,
    provider: stringOption(parsed, "provider"),
    model: stringOption(parsed, "model"),
    baseUrl: baseUrlOption("", stringOption(parsed, "base-url")),
    sessionPath: stringOption(parsed, "session"),
    continueRecent: values.continue === true,
    resume: values.resume === true,
    noSession: values["no-session"] === true,
    thinking,
    trustProject: values["trust-project"] === true,
    systemPrompt: stringOption(parsed, "system-prompt"),
    appendSystemPrompt: stringOption(parsed, "append-system-prompt"),
    noContextFiles: values["no-context-files"] === true,
  };
  if (values.print !== undefined) {
    if (options.resume) {
      throw usageError("", "--resume needs the interactive mode; use --continue or --session PATH with -p");
    }
    return { kind: "print", ...options };
  }
  if (options.json) throw usageError("", '--json needs print mode (arbor -p "prompt" --json)');
  return { kind: "interactive", ...options };
}

async function runAgent(input: AgentInput, io: CliIo): Promise<number> {
  if (input.kind === "print") {
    const { runPrintCommand } = await import("../commands/print-command");
    return runPrintCommand(input, io);
  }
  const { runInteractiveCommand } = await import("../commands/interactive-command");
  return runInteractiveCommand(input, io);
}

/**
 * `arbor [options]` and `arbor -p [PROMPT] [options]`: the agent modes. Print mode when `-p` is
 * given, else interactive. Its help is the main `arbor --help`. `toInput` throws `CLI_USAGE` for an
 * unknown command word, conflicting session flags, `--json` without `-p`, or an empty `-p ""`.
 */
export const agentUsage: CommandUsage<AgentInput> = {
  name: "",
  synopsis: "[options]",
  summary: "the agent",
  help: formatMainHelp(HELP.usage, HELP.options),
  options: OPTIONS,
  toInput: toAgentInput,
  run: runAgent,
};
