import type { CommandUsage } from "./command-usage";
import { requireOnePositional } from "./require-one-positional";
import { resolveSessionInput } from "./resolve-session-input";

/** The input of `arbor tree`. */
export interface TreeInput {
  file: string;
}

/** `arbor tree <session>`: options and help. */
export const treeUsage: CommandUsage<TreeInput> = {
  name: "tree",
  synopsis: "tree <session>",
  summary: "the session tree: labels, summaries, the leaf",
  help: `Usage: arbor tree <session>

Prints the whole session tree, one entry per line, with [labels], ◆ compactions, ↩ branch summaries
and ← leaf. The line towards the leaf stays flush left: at a fork, the other branches come first,
each behind ├─ one step in (a │ rail leads down to where the line goes on). Read-only; no API key
needed.

Every line is checked to be well-formed JSON (a damaged line fails the command, naming it). In a
session of 10,000 entries or more, a message's row is made from the fields it shows, so the rest of
such an entry is not checked against its type's structure: arbor check <session> checks every line
in full.

<session> is a session file, a session's short id or id prefix (arbor sessions lists them), or a
database location postgresql://host/database#<session-id>.

Options:
  -h, --help    this help
`,
  options: {},
  toInput: (parsed) => ({ file: requireOnePositional("tree", parsed, "session") as string }),
  run: async (input, io) =>
    (await import("../commands/tree-command")).runTreeCommand(await resolveSessionInput(input, io), io),
};
