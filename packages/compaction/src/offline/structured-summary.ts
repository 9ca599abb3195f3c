/** The sections of Arbor's checkpoint format, as lists of items (without bullet markers). */
export interface StructuredSummary {
  goal: string[];
  constraints: string[];
  done: string[];
  inProgress: string[];
  blocked: string[];
  decisions: string[];
  nextSteps: string[];
  critical: string[];
}

type SectionKey = keyof StructuredSummary;

const HEADINGS: Record<string, SectionKey> = {
  goal: "goal",
  "original request": "goal",
  "constraints & preferences": "constraints",
  constraints: "constraints",
  done: "done",
  "progress so far": "done",
  "in progress": "inProgress",
  blocked: "blocked",
  "key decisions": "decisions",
  "next steps": "nextSteps",
  "critical context": "critical",
  "context needed to continue": "critical",
};

const PLACEHOLDER = /^(\((none|nothing|no |not stated)[^)]*\)|none|n\/a)\.?$/i;

/** An empty summary (fresh arrays). */
export function emptyStructuredSummary(): StructuredSummary {
  return {
    goal: [],
    constraints: [],
    done: [],
    inProgress: [],
    blocked: [],
    decisions: [],
    nextSteps: [],
    critical: [],
  };
}

/**
 * Reads a checkpoint written in the structured format (by a model or by the offline summarizer) back
 * into sections. File-list tags are dropped (file lists travel in `details`); lines under unknown
 * headings are ignored; checkbox and list markers are stripped. Never throws.
 */
export function parseStructuredSummary(text: string): StructuredSummary {
  const summary = emptyStructuredSummary();
  const withoutTags = text.replace(/<(read-files|modified-files)>[\s\S]*?<\/\1>/g, "");
  let section: SectionKey | undefined;
  for (const rawLine of withoutTags.split("\n")) {
    const line = rawLine.trim();
    const heading = /^#{1,4}\s+(.+?)\s*$/.exec(line);
    if (heading) {
      section = HEADINGS[(heading[1] ?? "").toLowerCase().replace(/[*:]/g, "").trim()];
      continue;
    }
    if (section === undefined || line.length === 0 || line === "---" || line.startsWith("**")) continue;
    const item = line
      .replace(/^(?:[-*•]|\d+[.)])\s+/, "")
      .replace(/^\[[ xX]\]\s*/, "")
      .trim();
    if (item.length > 0 && !PLACEHOLDER.test(item)) summary[section].push(item);
  }
  return summary;
}

function bullets(items: readonly string[], empty: string, marker = "-"): string {
  if (items.length === 0) return `- ${empty}`;
  return items.map((item) => `${marker} ${item}`).join("\n");
}

/** Renders sections in the checkpoint format (every heading present, placeholders for empty lists). */
export function renderStructuredSummary(summary: StructuredSummary): string {
  const goal =
    summary.goal.length === 0
      ? "(not stated)"
      : summary.goal.length === 1
        ? summary.goal[0]
        : bullets(summary.goal, "");
  const steps =
    summary.nextSteps.length === 0
      ? "1. (no next step recorded)"
      : summary.nextSteps.map((step, index) => `${index + 1}. ${step}`).join("\n");
  return [
    `## Goal\n${goal}`,
    `## Constraints & Preferences\n${bullets(summary.constraints, "(none stated)")}`,
    `## Progress\n### Done\n${bullets(summary.done, "(nothing finished yet)", "- [x]")}`,
    `### In Progress\n${bullets(summary.inProgress, "(nothing in progress)", "- [ ]")}`,
    `### Blocked\n${bullets(summary.blocked, "(nothing blocked)")}`,
    `## Key Decisions\n${bullets(summary.decisions, "(none recorded)")}`,
    `## Next Steps\n${steps}`,
    `## Critical Context\n${bullets(summary.critical, "(none)")}`,
  ].join("\n\n");
}
