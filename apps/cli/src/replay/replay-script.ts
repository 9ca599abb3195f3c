import type { AgentMessage } from "@arbor/agent-loop";
import type { AssistantMessage, ToolResultMessage, UserMessage } from "@arbor/providers";
import type { SessionEntry } from "@arbor/session-store";

/** One recorded answer: an assistant message and the recorded results of its tool calls. */
export interface ReplayStep {
  assistant: AssistantMessage;
  /** By tool call id. A call without a recorded result gets a placeholder result. */
  results: Map<string, ToolResultMessage>;
}

/** A recorded user prompt and the answers that followed it until the next prompt. */
export interface ReplayTurn {
  user: UserMessage;
  steps: ReplayStep[];
  /**
   * True when the prompt arrived while the model was still working (after tool results, before the
   * assistant's answer): replay delivers it as a steering message.
   */
  steering: boolean;
}

/** What replay sends and answers, read from a recorded path. */
export interface ReplayScript {
  turns: ReplayTurn[];
  /** Every message of the recorded path, for the retention facts. */
  recorded: AgentMessage[];
  /** Recorded messages replay cannot send (errors without content, shell runs, custom messages). */
  skipped: number;
}

const hasToolCalls = (message: AssistantMessage) =>
  message.content.some((block) => block.type === "toolCall");

/**
 * Reads the replay script of a recorded path (root → leaf entries). Message entries only: recorded
 * compactions, context edits and branch summaries are ignored (the policy under test decides them).
 * A failed assistant message (`error` / `aborted`) is kept only when it is the last answer of its
 * prompt and has content; its stop reason becomes `stop` (as does `length`). An answer without tool calls that is not
 * the last of its prompt (pi retried it) is skipped. Pure; never throws.
 */
export function buildReplayScript(path: readonly SessionEntry[]): ReplayScript {
  const turns: ReplayTurn[] = [];
  const recorded: AgentMessage[] = [];
  let skipped = 0;
  let current: ReplayTurn | undefined;
  let lastStep: ReplayStep | undefined;
  for (const entry of path) {
    if (entry.type !== "message") continue;
    const message = entry.message as AgentMessage;
    recorded.push(message);
    if (message.role === "user") {
      const steering = lastStep !== undefined && hasToolCalls(lastStep.assistant);
      current = { user: message, steps: [], steering };
      turns.push(current);
      lastStep = undefined;
    } else if (message.role === "assistant" && current !== undefined) {
      lastStep = { assistant: message, results: new Map() };
      current.steps.push(lastStep);
    } else if (message.role === "toolResult" && lastStep !== undefined) {
      lastStep.results.set(message.toolCallId, message);
    } else {
      skipped++;
    }
  }
  for (const turn of turns) {
    const kept: ReplayStep[] = [];
    turn.steps.forEach((step, index) => {
      const last = index === turn.steps.length - 1;
      const failed = step.assistant.stopReason === "error" || step.assistant.stopReason === "aborted";
      const calls = hasToolCalls(step.assistant);
      if (
        (failed && !last && !calls) ||
        (failed && step.assistant.content.length === 0) ||
        (!calls && !last)
      ) {
        skipped++;
        return;
      }
      const { errorMessage: _dropped, ...assistant } = step.assistant;
      kept.push({ ...step, assistant: { ...assistant, stopReason: calls ? "toolUse" : "stop" } });
    });
    turn.steps = kept;
  }
  // A steering prompt is only possible when the previous turn still ends with tool calls.
  for (let index = 1; index < turns.length; index++) {
    const turn = turns[index] as ReplayTurn;
    const previousLast = turns[index - 1]?.steps.at(-1);
    turn.steering = turn.steering && previousLast !== undefined && hasToolCalls(previousLast.assistant);
  }
  return { turns, recorded, skipped };
}
