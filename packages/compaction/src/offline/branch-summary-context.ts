import { BRANCH_SUMMARY_PREAMBLE } from "../summary/summary-prompts";
import { parseStructuredSummary } from "./structured-summary";
import { clipAtBoundary, squash } from "./text-utils";

/** What a left branch contributes to a checkpoint: context lines and the decisions taken there. */
export interface BranchSummaryContext {
  critical: string[];
  decisions: string[];
}

/** Arbor's preamble, or another agent's one-or-two-line preamble ("The user explored a … branch …"). */
const FOREIGN_PREAMBLE = /^The user [^\n]*\bbranch\b[^\n]*\n(?:[^\n#]*:\n)?/;

/**
 * Turns the summary of a branch the user left into context for the main line: its goal becomes an
 * "explored and abandoned" line and its finished items an "On that branch" line (Critical Context);
 * its decisions are kept as decisions. Its goal, constraints and next steps are not the main line's.
 * A summary without the structured format is kept as one clipped line. Never throws.
 */
export function branchSummaryContext(text: string): BranchSummaryContext {
  const body = text.startsWith(BRANCH_SUMMARY_PREAMBLE)
    ? text.slice(BRANCH_SUMMARY_PREAMBLE.length)
    : text.replace(FOREIGN_PREAMBLE, "");
  const parsed = parseStructuredSummary(body);
  if (parsed.goal.length === 0 && parsed.done.length === 0 && parsed.decisions.length === 0) {
    const plain = squash(body.replace(/<(read-files|modified-files)>[\s\S]*?<\/\1>/g, ""));
    return {
      critical: plain ? [`Explored on another branch and abandoned: ${clipAtBoundary(plain, 400)}`] : [],
      decisions: [],
    };
  }
  const goal = parsed.goal.length > 0 ? parsed.goal.join("; ") : "(goal not stated)";
  const critical = [`Explored on another branch and abandoned: ${clipAtBoundary(goal, 300)}`];
  if (parsed.done.length > 0) {
    const done = parsed.done.map((item) => (/[.!?]$/.test(item) ? item : `${item}.`)).join(" ");
    critical.push(`On that branch: ${clipAtBoundary(done, 500)}`);
  }
  return { critical, decisions: [...parsed.decisions] };
}
