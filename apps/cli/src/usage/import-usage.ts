import type { CommandUsage } from "./command-usage";
import { requireOnePositional } from "./require-one-positional";
import { stringOption } from "./string-option";
import { usageError } from "./usage-error";

/** The input of `arbor import`. */
export interface ImportInput {
  file: string;
  to: string;
}

/** `arbor import <session.jsonl> --to postgresql://…`: options and help. */
export const importUsage: CommandUsage<ImportInput> = {
  name: "import",
  synopsis: "import <session.jsonl> --to URL",
  summary: "copy a session file into a PostgreSQL database, byte for byte",
  help: `Usage: arbor import <session.jsonl> --to postgresql://host/database[?schema=NAME][#ID]

Copies a session file into a PostgreSQL database (creating or upgrading the session tables first)
and prints the session's new location, postgresql://host/database#<session-id>, which inspect, tree,
export, compact and --session accept. Every line is kept byte for byte (arbor export <location>
--jsonl gives the file back). The session keeps its id unless the URL names another one (#ID). An
id that is already taken is refused; nothing is changed then. No API key needed.

Options:
  --to URL      the database: postgresql://[user[:password]@]host[:port]/database; ?schema=NAME
                picks the schema of the session tables (default arbor)
  -h, --help    this help
`,
  options: { to: { type: "string", valueName: "URL" } },
  toInput: (parsed) => {
    const file = requireOnePositional("import", parsed, "session.jsonl") as string;
    const to = stringOption(parsed, "to");
    if (to === undefined) throw usageError("import", "missing --to postgresql://host/database");
    if (!/^postgres(ql)?:\/\//i.test(to)) {
      throw usageError("import", `--to ${to}: expected a postgresql:// URL`);
    }
    return { file, to };
  },
  run: async (input, io) => (await import("../commands/import-command")).runImportCommand(input, io),
};
