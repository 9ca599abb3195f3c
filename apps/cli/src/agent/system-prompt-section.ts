/**
 * One part of the system prompt, in order:
 * - `base`: arbor's own instructions (or `--system-prompt`, kind `custom`);
 * - `context-file`: an `AGENTS.md` / `CLAUDE.md` (source: its path);
 * - `append`: `--append-system-prompt`;
 * - `environment`: working folder, platform, date.
 */
export interface SystemPromptSection {
  kind: "base" | "custom" | "context-file" | "append" | "environment";
  /** Where it comes from: `arbor`, a file path, `--system-prompt text`, `environment`. */
  source: string;
  /** The text this section adds to the prompt. */
  text: string;
  /** For a context file: the file's size and whether it was cut at the size limit. */
  bytes?: number;
  truncated?: boolean;
}
