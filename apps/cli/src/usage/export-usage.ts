import { version } from "../../package.json";
import type { CommandUsage } from "./command-usage";
import { requireOnePositional } from "./require-one-positional";
import { resolveSessionInput } from "./resolve-session-input";
import { stringOption } from "./string-option";
import { usageError } from "./usage-error";

/** The input of `arbor export`. */
export interface ExportInput {
  file: string;
  leafId: string | undefined;
  format: "html" | "md";
  output: string | undefined;
}

/** `arbor export <session>`: options and help. */
export const exportUsage: CommandUsage<ExportInput> = {
  name: "export",
  synopsis: "export <session>",
  summary: "the session as one offline HTML page, or its path as Markdown",
  help: `Usage: arbor export <session> [--leaf ID] [--html|--md] [-o FILE]

Writes the session as one self-contained HTML page (the whole tree, every leaf's context,
compactions; the default) or the leaf's path as Markdown, to <session name>.html|.md in this
folder, to FILE, or to stdout with -o -. Read-only; no API key needed.

<session> is a session file, or a session's short id or id prefix (arbor sessions lists them).

Options:
  --leaf ID         the leaf to export (default: the file's leaf, its last entry)
  --html            an HTML page (the default)
  --md              Markdown of the leaf's path
  -o, --output FILE where to write (- for stdout)
  -h, --help        this help
`,
  options: {
    leaf: { type: "string", valueName: "ID" },
    html: { type: "boolean" },
    md: { type: "boolean" },
    output: { type: "string", short: "o", valueName: "FILE" },
  },
  toInput: (parsed) => {
    if (parsed.values.html === true && parsed.values.md === true) {
      throw usageError("export", "use either --html or --md, not both");
    }
    return {
      file: requireOnePositional("export", parsed, "session") as string,
      leafId: stringOption(parsed, "leaf"),
      format: parsed.values.md === true ? "md" : "html",
      output: stringOption(parsed, "output"),
    };
  },
  run: async (input, io) =>
    (await import("../export/export-command")).runExportCommand(resolveSessionInput(input, io), io, version),
};
