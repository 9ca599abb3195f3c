import type { SessionDigest } from "./digest-messages";
import { clipAtBoundary, leadSentences, proseParagraphs } from "./text-utils";

/** A sentence that states what the assistant is about to do or what is still left. */
const NEXT_ACTION =
  /^(?:next|then|after that|afterwards)\b|\b(?:I'll|I will|I'm going to|let me|we (?:should|still need to)|still (?:need|needs|have|has) to|remaining (?:steps?|work|tasks?)|left to do|not (?:yet )?(?:done|finished|implemented))\b/i;

/**
 * What the last assistant text says to do next, as one quoted line, or undefined:
 * - a message in the middle of the work (tool calls followed, or the turn was cut): its first one or
 *   two sentences;
 * - a final answer: its first sentence and the first sentence that states a next action, only when it
 *   states one and no newer request is open (the user has moved on otherwise).
 */
function statedNextAction(digest: SessionDigest): string | undefined {
  const last = digest.lastAssistant;
  if (last === undefined) return undefined;
  if (!last.final) return leadSentences(last.text, 300) || undefined;
  if (digest.openRequest !== undefined) return undefined;
  const all = proseParagraphs(last.text).flat();
  const action = all.find((sentence) => NEXT_ACTION.test(sentence));
  if (action === undefined) return undefined;
  const first = all[0] as string;
  return clipAtBoundary(first === action ? action : `${first} ${action}`, 300);
}

/** Steps this summarizer writes; they are derived afresh, never carried over from an earlier checkpoint. */
const OWN_STEP =
  /^(?:Continue the current request: |Resolve: |Pick up from the last assistant message: |The latest request was answered)/;

/**
 * The Next Steps section, in priority order: the open user request, then each unresolved tool failure,
 * then the last assistant's stated next action. Model (provider) errors never become steps. An earlier
 * checkpoint's own steps (not the ones this summarizer derives) follow while the work is not closed by
 * a final answer; after a final answer with nothing left, one step says the request was answered.
 * Pure; deterministic.
 */
export function composeNextSteps(
  digest: SessionDigest,
  unresolvedToolFailures: readonly string[],
  previousSteps: readonly string[],
): string[] {
  const steps: string[] = [];
  if (digest.openRequest !== undefined)
    steps.push(`Continue the current request: "${clipAtBoundary(digest.openRequest, 300)}"`);
  for (const failure of unresolvedToolFailures) steps.push(`Resolve: ${failure}`);
  const action = statedNextAction(digest);
  if (action !== undefined) steps.push(`Pick up from the last assistant message: "${action}"`);
  const answered = digest.lastAssistant?.final === true && digest.openRequest === undefined;
  if (!answered) steps.push(...previousSteps.filter((step) => !OWN_STEP.test(step)));
  if (steps.length === 0 && answered)
    steps.push("The latest request was answered (see Done); wait for the user's next instruction.");
  return steps;
}
