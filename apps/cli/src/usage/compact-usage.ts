import { baseUrlOption } from "./base-url-option";
import type { CommandUsage } from "./command-usage";
import { requireOnePositional } from "./require-one-positional";
import { resolveSessionInput } from "./resolve-session-input";
import { stringOption } from "./string-option";
import { tokenCountOption } from "./token-count-option";

/** The input of `arbor compact`. */
export interface CompactInput {
  file: string;
  offline: boolean;
  keepRecentTokens: number | undefined;
  instructions: string | undefined;
  provider: string | undefined;
  model: string | undefined;
  baseUrl: string | undefined;
  /** `--no-extensions`: the plain path, no extension is loaded. */
  noExtensions: boolean;
  /** `--trust-project`: load the working folder's project configuration for this run. */
  trustProject: boolean;
}

/** `arbor compact <session>`: options and help. */
export const compactUsage: CommandUsage<CompactInput> = {
  name: "compact",
  synopsis: "compact <session>",
  summary: "append a compaction entry (--offline: no model)",
  help: `Usage: arbor compact <session> [--offline] [--keep-recent-tokens N] [--instructions TEXT]
                     [--provider NAME] [--model ID] [--base-url URL]
                     [--no-extensions] [--trust-project]

Appends a compaction entry at the session's leaf: older history is summarized, recent tokens are
kept verbatim. Takes the session's writer lock. The summary is written by the model, or by the
offline summarizer with --offline or when no API key is set (the output says which).

Extensions run as they do for /compact in interactive mode: the extensions your settings name
(the user's always, a project's only in a trusted folder) get session_before_compact and may
cancel the compaction (exit code 1, nothing written) or write the summary themselves (stored with
fromHook: true). --no-extensions loads none of them; --offline neither (no model, no network, no
extension code: nothing but arbor runs).

<session> is a session file, a session's short id or id prefix (arbor sessions lists them), or a
database location postgresql://host/database#<session-id>.

Options:
  --offline                 use the offline summarizer (no model, no network, no extension)
  --keep-recent-tokens N    recent tokens kept verbatim (default: settings, else 20000)
  --instructions TEXT       focus for the summary
  --provider NAME           the summary model's provider
  --model ID                the summary model (ID or provider/ID)
  --base-url URL            replace the model's endpoint (an http:// or https:// URL)
  --no-extensions           load no extension (the plain compaction)
  --trust-project           load this folder's project configuration for this run
  -h, --help                this help
`,
  options: {
    offline: { type: "boolean" },
    "keep-recent-tokens": { type: "string", valueName: "N" },
    instructions: { type: "string", valueName: "TEXT" },
    provider: { type: "string", valueName: "NAME" },
    model: { type: "string", valueName: "ID" },
    "base-url": { type: "string", valueName: "URL" },
    "no-extensions": { type: "boolean" },
    "trust-project": { type: "boolean" },
  },
  toInput: (parsed) => ({
    file: requireOnePositional("compact", parsed, "session") as string,
    offline: parsed.values.offline === true,
    keepRecentTokens: tokenCountOption(
      "compact",
      "--keep-recent-tokens",
      stringOption(parsed, "keep-recent-tokens"),
    ),
    instructions: stringOption(parsed, "instructions"),
    provider: stringOption(parsed, "provider"),
    model: stringOption(parsed, "model"),
    baseUrl: baseUrlOption("compact", stringOption(parsed, "base-url")),
    noExtensions: parsed.values["no-extensions"] === true,
    trustProject: parsed.values["trust-project"] === true,
  }),
  run: async (input, io) => {
    const { runCompactCommand } = await import("../commands/compact-command");
    const { chooseSummarizer } = await import("../commands/choose-summarizer");
    return runCompactCommand(await resolveSessionInput(input, io), io, chooseSummarizer);
  },
};
