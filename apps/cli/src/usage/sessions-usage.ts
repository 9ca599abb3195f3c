import type { CommandUsage } from "./command-usage";
import { requireOnePositional } from "./require-one-positional";
import { stringOption } from "./string-option";
import { usageError } from "./usage-error";

/** The input of `arbor sessions`. */
export interface SessionsInput {
  all: boolean;
  json: boolean;
  /** `--store postgresql://…`: list the sessions of that database instead. */
  store: string | undefined;
}

/** `arbor sessions`: options and help. */
export const sessionsUsage: CommandUsage<SessionsInput> = {
  name: "sessions",
  synopsis: "sessions [--all | --store URL]",
  summary: "the sessions of this folder (--all: of every folder), with short ids",
  help: `Usage: arbor sessions [--all | --store postgresql://host/database] [--json]

Lists the sessions of this folder ($ARBOR_HOME/sessions/<folder slug>/), most recently active
first: short id, name (or the first message), start, last activity, entries, size and model.

The short id is the end of the session's id (random, so it differs between sessions started at the
same moment); longer when two listed sessions share it. It, any prefix of it with 4 or more
characters, or a prefix of the full id, is accepted wherever a session file is:
  arbor inspect 0b6c4e17     arbor tree 0b6c     arbor --session 0b6c4e17     arbor export 0b6c4e17
(this folder's sessions first, then every folder's).

Options:
  --all         the sessions of every folder, with each one's folder
  --store URL   the sessions of a PostgreSQL database (postgresql://host/database[?schema=NAME]),
                each with its location postgresql://host/database#<session-id>
  --json        one JSON object: { "sessions": [ { "shortId", "id", "path", "cwd", "name",
                "firstMessage", "started", "lastActivity", "entries", "bytes", "model" } ] }
  -h, --help    this help
`,
  options: {
    all: { type: "boolean" },
    json: { type: "boolean" },
    store: { type: "string", valueName: "URL" },
  },
  toInput: (parsed) => {
    requireOnePositional("sessions", parsed, undefined);
    const store = stringOption(parsed, "store");
    if (store !== undefined && !/^postgres(ql)?:\/\//i.test(store)) {
      throw usageError("sessions", `--store ${store}: expected a postgresql:// URL`);
    }
    if (store !== undefined && parsed.values.all === true) {
      throw usageError("sessions", "use either --all or --store, not both");
    }
    return { all: parsed.values.all === true, json: parsed.values.json === true, store };
  },
  run: async (input, io) =>
    input.store !== undefined
      ? (await import("../commands/database-sessions-command")).runDatabaseSessionsCommand(
          input.store,
          input.json,
          io,
        )
      : (await import("../commands/sessions-command")).runSessionsCommand(input, io),
};
