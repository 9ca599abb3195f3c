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
  format: "html" | "md" | "jsonl";
  output: string | undefined;
}

/** `arbor export <session>`: options and help. */
export const exportUsage: CommandUsage<ExportInput> = {
  name: "export",
  synopsis: "export <session>",
  summary: "the session as one offline HTML page, its path as Markdown, or its JSONL bytes",
  help: `Usage: arbor export <session> [--leaf ID] [--html|--md|--jsonl] [-o FILE]

Writes the session as one self-contained HTML page (the whole tree, every leaf's context,
compactions; the default), the leaf's path as Markdown, or (--jsonl) the session file's exact
bytes, to <session name>.html|.md|.jsonl in this folder, to FILE, or to stdout with -o - (not with
--jsonl: what arbor prints is made inert, so only a file gets the exact bytes). Read-only; no API
key needed.

<session> is a session file, a session's short id or id prefix (arbor sessions lists them), or a
database location postgresql://host/database#<session-id>.

Options:
  --leaf ID         the leaf to export (default: the file's leaf, its last entry)
  --html            an HTML page (the default)
  --md              Markdown of the leaf's path
  --jsonl           the session as JSONL, byte for byte (a copy out of a database)
  -o, --output FILE where to write (- for stdout)
  -h, --help        this help
`,
  options: {
    leaf: { type: "string", valueName: "ID" },
    html: { type: "boolean" },
    md: { type: "boolean" },
    jsonl: { type: "boolean" },
    output: { type: "string", short: "o", valueName: "FILE" },
  },
  toInput: (parsed) => {
    const formats = (["html", "md", "jsonl"] as const).filter((name) => parsed.values[name] === true);
    if (formats.length > 1) {
      const named = formats.map((name) => `--${name}`);
      throw usageError(
        "export",
        formats.length === 2
          ? `use either ${named.join(" or ")}, not both`
          : "use only one of --html, --md and --jsonl",
      );
    }
    if (formats[0] === "jsonl" && stringOption(parsed, "leaf") !== undefined) {
      throw usageError("export", "--jsonl exports the whole session: --leaf does not apply");
    }
    return {
      file: requireOnePositional("export", parsed, "session") as string,
      leafId: stringOption(parsed, "leaf"),
      format: formats[0] ?? "html",
      output: stringOption(parsed, "output"),
    };
  },
  run: async (input, io) =>
    (await import("../export/export-command")).runExportCommand(
      await resolveSessionInput(input, io),
      io,
      version,
    ),
};
