/**
 * The entries of a session file (pi's format, version 3). A file is one JSON object per line: a
 * {@link SessionHeader} first, then entries that form a tree through `id` / `parentId`.
 *
 * These are plain TypeScript types (no zod): validation is an internal detail of the store. Fields
 * that this version does not know are kept on the objects and written back unchanged.
 */
import type { AgentMessage } from "@arbor/agent-loop";
import type {
  ImageContent,
  SystemMessage,
  TextContent,
  ThinkingContent,
  ToolCall,
  Usage,
} from "@arbor/providers";

/** The format version Arbor writes. Versions 1 and 2 are read and migrated in memory. */
export const CURRENT_SESSION_VERSION = 3;

/** First line of a session file. It is not a tree node: its `id` is the session id. */
export interface SessionHeader {
  type: "session";
  /** Format version; a missing version means 1. */
  version?: number;
  /** Session id (a UUIDv7 for sessions Arbor or pi create). */
  id: string;
  /** Creation time, ISO 8601. */
  timestamp: string;
  /** Working directory the session belongs to. */
  cwd: string;
  /** Path of the session this one was forked or cloned from. */
  parentSession?: string;
}

/** Fields every entry has. */
export interface SessionEntryBase {
  type: string;
  /** 8 lowercase hex characters for new entries; any string in hand-written files. */
  id: string;
  /** The parent entry's id, `null` for a root. */
  parentId: string | null;
  /** ISO 8601 time the entry was written. */
  timestamp: string;
}

/** A transcript message (roles user, assistant, toolResult, system, bashExecution, custom, ...). */
export interface SessionMessageEntry extends SessionEntryBase {
  type: "message";
  message: AgentMessage;
}

/** The thinking level changed. Contributes nothing to the context; the latest on the path wins. */
export interface ThinkingLevelChangeEntry extends SessionEntryBase {
  type: "thinking_level_change";
  thinkingLevel: string;
}

/** The model changed. Contributes nothing to the context; the latest on the path wins. */
export interface ModelChangeEntry extends SessionEntryBase {
  type: "model_change";
  provider: string;
  modelId: string;
}

/** Model usage that is not part of the conversation (for example a cache warm-up); counts in cost totals. */
export interface UsageEntry extends SessionEntryBase {
  type: "usage";
  /** What the usage was for, for example `cache_warm`. */
  kind: string;
  provider: string;
  model: string;
  usage: Usage;
  note?: string;
}

/**
 * History before `firstKeptEntryId` was replaced by `summary`. A compaction whose `firstKeptEntryId`
 * is its own id keeps nothing ("retain-none").
 */
export interface CompactionEntry<TDetails = unknown> extends SessionEntryBase {
  type: "compaction";
  summary: string;
  firstKeptEntryId: string;
  /** Estimated context tokens before the compaction. */
  tokensBefore: number;
  /** For Arbor's and pi's default compaction: `{ readFiles: string[]; modifiedFiles: string[] }`. */
  details?: TDetails;
  /** Usage of the summarization request(s). */
  usage?: Usage;
  /** `true` when an extension produced the compaction (pi's legacy name). */
  fromHook?: boolean;
  /** The replayed system prompt and tools at the time of the compaction (absent in older files). */
  systemMessage?: SystemMessage;
}

/** What a context edit puts in place of its target's content. */
export interface ContextEditReplacement {
  content: string | Array<TextContent | ImageContent | ThinkingContent | ToolCall>;
}

/** Replaces (or with `replacement: null`, omits) an earlier entry's content in the model context. */
export interface ContextEditEntry extends SessionEntryBase {
  type: "context_edit";
  targetId: string;
  replacement: ContextEditReplacement | null;
}

/** The summary of a branch the user navigated away from. */
export interface BranchSummaryEntry<TDetails = unknown> extends SessionEntryBase {
  type: "branch_summary";
  /** The old leaf id, or the literal `"root"` when the leaf was empty. */
  fromId: string;
  summary: string;
  details?: TDetails;
  usage?: Usage;
  fromHook?: boolean;
}

/** Extension state. Contributes nothing to the context. */
export interface CustomEntry<TData = unknown> extends SessionEntryBase {
  type: "custom";
  customType: string;
  data?: TData;
}

/** A message injected by an extension; it reaches the model as role `custom`. */
export interface CustomMessageEntry<TDetails = unknown> extends SessionEntryBase {
  type: "custom_message";
  customType: string;
  content: string | Array<TextContent | ImageContent>;
  /** Whether a UI shows the message. */
  display: boolean;
  details?: TDetails;
}

/** Sets (or with an empty/absent `label`, clears) the label of `targetId`. Labels are session-wide. */
export interface LabelEntry extends SessionEntryBase {
  type: "label";
  targetId: string;
  label?: string;
}

/** Session metadata. The latest `session_info` in file order names the session; an empty name clears it. */
export interface SessionInfoEntry extends SessionEntryBase {
  type: "session_info";
  name?: string;
}

/**
 * Every entry type this version knows. At run time a loaded session may also hold entries of types
 * written by a newer version ({@link UnknownEntry}); they are kept, written back, and contribute
 * nothing to the context. {@link isUnknownEntry} tells them apart.
 */
export type SessionEntry =
  | SessionMessageEntry
  | ThinkingLevelChangeEntry
  | ModelChangeEntry
  | UsageEntry
  | CompactionEntry
  | ContextEditEntry
  | BranchSummaryEntry
  | CustomEntry
  | CustomMessageEntry
  | LabelEntry
  | SessionInfoEntry;

/** An entry whose `type` this version does not know. All its fields are kept as they are. */
export interface UnknownEntry extends SessionEntryBase {
  [field: string]: unknown;
}

/** Any line of a session file. */
export type FileEntry = SessionHeader | SessionEntry;

/** The entry types this version knows. */
export const SESSION_ENTRY_TYPES: readonly SessionEntry["type"][] = [
  "message",
  "thinking_level_change",
  "model_change",
  "usage",
  "compaction",
  "context_edit",
  "branch_summary",
  "custom",
  "custom_message",
  "label",
  "session_info",
];

const knownTypes = new Set<string>(SESSION_ENTRY_TYPES);

/** True when the entry's `type` is not one this version knows (the entry is kept but ignored). */
export function isUnknownEntry(entry: { type: string }): boolean {
  return !knownTypes.has(entry.type);
}
