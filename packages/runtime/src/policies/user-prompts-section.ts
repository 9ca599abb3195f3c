import type { SessionEntry } from "@arbor/session-store";

/** Longest part of one prompt the section quotes, in characters. */
const MAX_PROMPT_CHARS = 1500;

/**
 * A summary section quoting the user's own prompts that a compaction summarizes (the branch's user
 * messages before `firstKeptEntryId`), verbatim, so that ids, numbers and constraints the user gave
 * survive summaries of summaries (as Codex's compaction keeps user messages). The newest prompts win
 * when they exceed `budgetChars`; each is cut at 1500 characters; kept in their order. Empty when
 * there is none or the budget is 0. Pure.
 */
export function userPromptsSection(
  branch: readonly SessionEntry[],
  firstKeptEntryId: string | null,
  budgetChars: number,
): string {
  if (budgetChars <= 0) return "";
  const end = firstKeptEntryId === null ? branch.length : branch.findIndex((e) => e.id === firstKeptEntryId);
  const prompts: string[] = [];
  for (const entry of branch.slice(0, end < 0 ? branch.length : end)) {
    if (entry.type !== "message" || entry.message.role !== "user") continue;
    const content = entry.message.content;
    const text =
      typeof content === "string"
        ? content
        : content.map((block) => (block.type === "text" ? block.text : "")).join("\n");
    const trimmed = text.trim();
    if (trimmed !== "") prompts.push(trimmed.slice(0, MAX_PROMPT_CHARS));
  }
  const chosen: string[] = [];
  let used = 0;
  for (let index = prompts.length - 1; index >= 0; index--) {
    const prompt = prompts[index] as string;
    if (used + prompt.length > budgetChars) break;
    used += prompt.length;
    chosen.unshift(prompt);
  }
  if (chosen.length === 0) return "";
  return `\n\n## The user's prompts (verbatim)\n${chosen.map((prompt) => `- ${prompt.replaceAll("\n", "\n  ")}`).join("\n")}`;
}
