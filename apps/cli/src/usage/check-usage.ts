import type { CommandUsage } from "./command-usage";
import { requireOnePositional } from "./require-one-positional";
import { resolveSessionInput } from "./resolve-session-input";

/** The input of `arbor check`. */
export interface CheckInput {
  file: string;
  json: boolean;
}

/** `arbor check <session>`: options and help. */
export const checkUsage: CommandUsage<CheckInput> = {
  name: "check",
  synopsis: "check <session>",
  summary: "check every line of a session file; exit 1 with the problems by line",
  help: `Usage: arbor check <session> [--json]

Reads every line of a session file and checks it: JSON, the header, each entry against its type's
structure, and each entry's parent (SESSION_PARENT_MISSING: its parentId names no entry, so it
starts a tree of its own, cut off from what came before). Prints one line per problem (file:line: CODE: message) and a summary; exits 0 when
the file is clean, 1 when a problem was found. Read-only (no lock, nothing written); no API key
needed. inspect reads only what its report needs; check reads everything.

<session> is a session file, a session's short id or id prefix (arbor sessions lists them), or a
database location postgresql://host/database#<session-id> (checked the same way: every line, read
without the writer lock).

Options:
  --json        one JSON object on stdout: { file, ok, linesChecked, problems: [{ line, code, message, entryId }] }
  -h, --help    this help
`,
  options: { json: { type: "boolean" } },
  toInput: (parsed) => ({
    file: requireOnePositional("check", parsed, "session") as string,
    json: parsed.values.json === true,
  }),
  run: async (input, io) =>
    (await import("../commands/check-command")).runCheckCommand(await resolveSessionInput(input, io), io),
};
