import type { CommandUsage } from "./command-usage";
import { requireOnePositional } from "./require-one-positional";

/** The input of `arbor sessions`. */
export interface SessionsInput {
  all: boolean;
  json: boolean;
}

/** `arbor sessions`: options and help. */
export const sessionsUsage: CommandUsage<SessionsInput> = {
  name: "sessions",
  synopsis: "sessions [--all]",
  summary: "the sessions of this folder (--all: of every folder), with short ids",
  help: `Usage: arbor sessions [--all] [--json]

Lists the sessions of this folder ($ARBOR_HOME/sessions/<folder slug>/), most recently active
first: short id, name (or the first message), start, last activity, entries, size and model.

The short id is the end of the session's id (random, so it differs between sessions started at the
same moment); longer when two listed sessions share it. It, any prefix of it with 4 or more
characters, or a prefix of the full id, is accepted wherever a session file is:
  arbor inspect 0b6c4e17     arbor tree 0b6c     arbor --session 0b6c4e17     arbor export 0b6c4e17
(this folder's sessions first, then every folder's).

Options:
  --all         the sessions of every folder, with each one's folder
  --json        one JSON object: { "sessions": [ { "shortId", "id", "path", "cwd", "name",
                "firstMessage", "started", "lastActivity", "entries", "bytes", "model" } ] }
  -h, --help    this help
`,
  options: { all: { type: "boolean" }, json: { type: "boolean" } },
  toInput: (parsed) => {
    requireOnePositional("sessions", parsed, undefined);
    return { all: parsed.values.all === true, json: parsed.values.json === true };
  },
  run: async (input, io) => (await import("../commands/sessions-command")).runSessionsCommand(input, io),
};
