import type { ContextFile } from "./load-context-files";
import type { SystemPromptSection } from "./system-prompt-section";

/** What the system prompt is made of. */
export interface SystemPromptContext {
  cwd: string;
  /** Defaults to today's date. */
  date?: Date;
  platform?: string;
  /** Context files, in order (see `loadContextFiles`). */
  contextFiles?: readonly ContextFile[];
  /** `--system-prompt`: replaces arbor's own instructions. `source` names the file, or "text". */
  custom?: { text: string; source: string };
  /** `--append-system-prompt`: added after the context files. */
  append?: { text: string; source: string };
}

/** A system prompt and the sections it was made of (for `/session` and `inspect`). */
export interface SystemPrompt {
  text: string;
  sections: SystemPromptSection[];
}

const BASE = `You are arbor, a coding agent working in the user's project. You read and change files and run commands with your tools, then report briefly what you did.

Tools:
- read: read a file (use offset and limit to page through long files)
- write: create a file or replace its whole content
- edit: replace one exact, unique piece of text in a file (read the file first)
- bash: run a shell command in the project folder (tests, builds, git, search)

Work like this:
- Look before you change: read the relevant files, search with bash (grep, ls) when unsure.
- Prefer small, targeted edits over rewriting files.
- After a change, run the project's tests or type checker when there are any, and fix what you broke.
- Never invent file contents or command output; run the tool.
- Answer concisely; name the files you changed.`;

const CONTEXT_HEADING =
  "Project context: the files below were found in the working folder, its parents and the user's arbor home. Follow their instructions where they apply; a later file is more specific than an earlier one.";

function contextSection(file: ContextFile): SystemPromptSection {
  const note = file.truncated
    ? `\n\n[arbor: only the first ${file.text.length} characters of this ${file.bytes}-byte file are included]`
    : "";
  return {
    kind: "context-file",
    source: file.path,
    text: `Instructions from ${file.path}:\n\n${file.text.trimEnd()}${note}`,
    bytes: file.bytes,
    truncated: file.truncated,
  };
}

/**
 * The coding agent's system prompt, in this order: arbor's instructions (or `custom`), the context
 * files (the user's `$ARBOR_HOME/AGENTS.md`, then the project's from the outermost folder to the
 * working folder), `append`, and the environment (working folder, platform, date). Sections are
 * separated by blank lines. Context files are given as quoted text of the project, not as arbor's
 * own words. Pure.
 */
export function buildSystemPrompt(context: SystemPromptContext): SystemPrompt {
  const date = (context.date ?? new Date()).toISOString().slice(0, 10);
  const files = context.contextFiles ?? [];
  const sections: SystemPromptSection[] = [
    context.custom
      ? { kind: "custom", source: context.custom.source, text: context.custom.text.trimEnd() }
      : { kind: "base", source: "arbor", text: BASE },
  ];
  files.forEach((file, index) => {
    const section = contextSection(file);
    if (index === 0) section.text = `${CONTEXT_HEADING}\n\n${section.text}`;
    sections.push(section);
  });
  if (context.append) {
    sections.push({ kind: "append", source: context.append.source, text: context.append.text.trimEnd() });
  }
  sections.push({
    kind: "environment",
    source: "environment",
    text: `Environment:\n- Working folder: ${context.cwd}\n- Platform: ${context.platform ?? process.platform}\n- Date: ${date}`,
  });
  return { text: sections.map((section) => section.text).join("\n\n"), sections };
}
