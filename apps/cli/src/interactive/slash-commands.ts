/** A slash command typed in the interactive mode. */
export interface SlashCommand {
  name: string;
  /** The rest of the line after the name, trimmed (may be empty). */
  args: string;
}

/** The slash commands the interactive mode knows, with their one-line help. */
export const SLASH_COMMANDS: ReadonlyArray<{ name: string; usage: string; help: string }> = [
  { name: "compact", usage: "/compact [instructions]", help: "summarize older history now" },
  {
    name: "tree",
    usage: "/tree",
    help: "move to another entry, optionally summarizing the branch you leave",
  },
  { name: "fork", usage: "/fork", help: "start a new session from an earlier user message" },
  { name: "clone", usage: "/clone", help: "copy the current branch into a new session" },
  { name: "label", usage: "/label [text]", help: "label the current entry (no text clears it)" },
  { name: "name", usage: "/name [text]", help: "name the session" },
  { name: "session", usage: "/session", help: "file, id, entries, tokens, cost, context usage" },
  { name: "model", usage: "/model [id]", help: "show or switch the model" },
  { name: "thinking", usage: "/thinking [level]", help: "show or set the thinking level (off … high)" },
  {
    name: "export",
    usage: "/export [--md] [FILE]",
    help: "write the session as an HTML page (or Markdown) you can open offline",
  },
  { name: "new", usage: "/new", help: "start a new session" },
  {
    name: "resume",
    usage: "/resume [session]",
    help: "switch to another session: pick one of this folder's, or name a file, an id or postgresql://…#<id>",
  },
  { name: "help", usage: "/help", help: "list the commands" },
  { name: "quit", usage: "/quit", help: "leave (Ctrl-D works too)" },
];

/** Parses `/name args…`; returns undefined for a line that is not a slash command. */
export function parseSlashCommand(line: string): SlashCommand | undefined {
  const match = /^\/([a-z][a-z-]*)(?:\s+([\s\S]*))?$/i.exec(line.trim());
  if (!match) return undefined;
  return { name: (match[1] ?? "").toLowerCase(), args: (match[2] ?? "").trim() };
}
