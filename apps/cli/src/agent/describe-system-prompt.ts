import { formatInteger } from "../format/format-number";
import type { SystemPrompt } from "./build-system-prompt";
import type { SystemPromptSection } from "./system-prompt-section";

/** A section of the system prompt as `/session` and `inspect` report it. */
export interface SystemPromptSectionSummary {
  kind: SystemPromptSection["kind"];
  source: string;
  /** chars/4, as the other estimates. */
  estimatedTokens: number;
  /** For a context file: its size, and whether only its first 64 KiB were given. */
  bytes?: number;
  truncated?: boolean;
}

const LABELS: Record<SystemPromptSection["kind"], string> = {
  base: "arbor's instructions",
  custom: "--system-prompt",
  "context-file": "context file",
  append: "--append-system-prompt",
  environment: "environment (folder, platform, date)",
};

/** The sections of `prompt` with their token estimates (for `inspect --json`). Pure. */
export function summarizeSystemPrompt(prompt: SystemPrompt): {
  estimatedTokens: number;
  sections: SystemPromptSectionSummary[];
} {
  const sections = prompt.sections.map((section) => ({
    kind: section.kind,
    source: section.source,
    estimatedTokens: Math.ceil(section.text.length / 4),
    ...(section.bytes !== undefined ? { bytes: section.bytes } : {}),
    ...(section.truncated !== undefined ? { truncated: section.truncated } : {}),
  }));
  return { estimatedTokens: Math.ceil(prompt.text.length / 4), sections };
}

/**
 * One line per section of `prompt`, in order (`~546 tokens  arbor's instructions`,
 * `~120 tokens  context file /w/p/AGENTS.md (cut at 64 KiB)`), for `/session` and `inspect`. Paths
 * and text are as found: the caller makes them inert for the terminal. Pure.
 */
export function describeSystemPrompt(prompt: SystemPrompt): string[] {
  const { sections } = summarizeSystemPrompt(prompt);
  const width = Math.max(...sections.map((section) => formatInteger(section.estimatedTokens).length));
  return sections.map((section) => {
    const tokens = `~${formatInteger(section.estimatedTokens)}`.padStart(width + 1);
    const label = LABELS[section.kind];
    const source =
      section.kind === "context-file" ||
      (section.kind !== "base" && section.kind !== "environment" && !section.source.endsWith(" text"))
        ? ` ${section.source}`
        : "";
    return `${tokens} tokens  ${label}${source}${section.truncated ? " (cut at 64 KiB)" : ""}`;
  });
}
