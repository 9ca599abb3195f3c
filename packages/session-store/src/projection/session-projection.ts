import type { AgentMessage } from "@arbor/agent-loop";
import type { SessionEntry } from "../session-entry";

/** The model selected on a path: the latest `model_change` or assistant message. */
export interface SessionModelRef {
  provider: string;
  modelId: string;
}

/** Settings read from the full path (not only the compacted part). */
export interface SessionContextSettings {
  /** The latest `thinking_level_change` on the path; `"off"` when there is none. */
  thinkingLevel: string;
  /** The latest `model_change` or assistant message on the path; `null` when there is none. */
  model: SessionModelRef | null;
}

/** One context entry and the messages it contributes (possibly none). */
export interface ProjectedSessionEntry {
  /** The entry itself (the stored object, not a copy: do not mutate it). */
  sourceEntry: SessionEntry;
  /** What the entry contributes to the model context, after context edits. */
  messages: AgentMessage[];
}

/** What the model sees for one leaf, with the entries each message comes from. */
export interface SessionProjection extends SessionContextSettings {
  /** Context entries in order: the latest compaction, kept entries, then everything after it. */
  entries: ProjectedSessionEntry[];
  /** `entries.flatMap((entry) => entry.messages)`. */
  messages: AgentMessage[];
}
