import type { SystemPromptFlags } from "../agent/assemble-system-prompt";
import type { CommandUsage } from "./command-usage";
import { requireOnePositional } from "./require-one-positional";
import { resolveSessionInput } from "./resolve-session-input";
import { stringOption } from "./string-option";
import { tokenCountOption } from "./token-count-option";

/** The input of `arbor inspect`. */
export interface InspectInput extends SystemPromptFlags {
  file: string;
  leafId: string | undefined;
  keepRecentTokens: number | undefined;
  json: boolean;
  full: boolean;
}

/** `arbor inspect <session>`: options and help. */
export const inspectUsage: CommandUsage<InspectInput> = {
  name: "inspect",
  synopsis: "inspect <session>",
  summary: "what the model sees at a leaf, and what compaction would cut",
  help: `Usage: arbor inspect <session> [--leaf ID] [--keep-recent-tokens N] [--json] [--full]
                     [--system-prompt FILE|TEXT] [--append-system-prompt FILE|TEXT] [--no-context-files]

Shows a session as the model would see it at a leaf: the path from the root, each projected message
with its token estimate, and what the next compaction would summarize and keep. Read-only (no lock,
no change to the file); no API key needed.

<session> is a session file, a session's short id or id prefix (arbor sessions lists them), or a
database location postgresql://host/database#<session-id>.

Options:
  --leaf ID                 inspect this entry instead of the file's leaf (its last entry)
  --keep-recent-tokens N    recent tokens a compaction keeps (default: settings, else 20000)
  --json                    one JSON object on stdout (a stable interface, see the README)
  --full                    with --json: include each message
  --system-prompt FILE|TEXT, --append-system-prompt FILE|TEXT, --no-context-files
                            as for the agent: the system prompt shown is the one a run would
                            send now (it is not stored in the session), with the context files of
                            the session's folder (its header's cwd, else this folder)
  -h, --help                this help
`,
  options: {
    leaf: { type: "string", valueName: "ID" },
    "keep-recent-tokens": { type: "string", valueName: "N" },
    json: { type: "boolean" },
    full: { type: "boolean" },
    "system-prompt": { type: "string", valueName: "FILE|TEXT" },
    "append-system-prompt": { type: "string", valueName: "FILE|TEXT" },
    "no-context-files": { type: "boolean" },
  },
  toInput: (parsed) => ({
    file: requireOnePositional("inspect", parsed, "session") as string,
    leafId: stringOption(parsed, "leaf"),
    keepRecentTokens: tokenCountOption(
      "inspect",
      "--keep-recent-tokens",
      stringOption(parsed, "keep-recent-tokens"),
    ),
    json: parsed.values.json === true,
    full: parsed.values.full === true,
    systemPrompt: stringOption(parsed, "system-prompt"),
    appendSystemPrompt: stringOption(parsed, "append-system-prompt"),
    noContextFiles: parsed.values["no-context-files"] === true,
  }),
  run: async (input, io) =>
    (await import("../commands/inspect-command")).runInspectCommand(await resolveSessionInput(input, io), io),
};
