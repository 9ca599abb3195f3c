import type { CommandUsage } from "./command-usage";
import { requireOnePositional } from "./require-one-positional";
import { stringOption } from "./string-option";
import { tokenCountOption } from "./token-count-option";

/** The input of `arbor inspect`. */
export interface InspectInput {
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

Shows a session as the model would see it at a leaf: the path from the root, each projected message
with its token estimate, and what the next compaction would summarize and keep. Read-only (no lock,
no change to the file); no API key needed.

Options:
  --leaf ID                 inspect this entry instead of the file's leaf (its last entry)
  --keep-recent-tokens N    recent tokens a compaction keeps (default: settings, else 20000)
  --json                    one JSON object on stdout (a stable interface, see the README)
  --full                    with --json: include each message
  -h, --help                this help
`,
  options: {
    leaf: { type: "string", valueName: "ID" },
    "keep-recent-tokens": { type: "string", valueName: "N" },
    json: { type: "boolean" },
    full: { type: "boolean" },
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
  }),
  run: async (input, io) => (await import("../commands/inspect-command")).runInspectCommand(input, io),
};
