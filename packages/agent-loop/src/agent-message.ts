import type {
  AssistantMessage,
  ImageContent,
  SystemMessage,
  TextContent,
  ToolResultMessage,
  UserMessage,
} from "@arbor/providers";

/** Output of a shell command the user ran directly (pi's `!command`), kept in the transcript. */
export interface BashExecutionMessage {
  role: "bashExecution";
  command: string;
  output: string;
  /** Undefined when the process did not exit normally. */
  exitCode: number | undefined;
  cancelled: boolean;
  truncated: boolean;
  fullOutputPath?: string;
  /** When true the message stays in history but never reaches the model. */
  excludeFromContext?: boolean;
  timestamp: number;
}

/** A message injected by an extension. `display` controls whether a UI shows it. */
export interface CustomMessage {
  role: "custom";
  customType: string;
  content: string | Array<TextContent | ImageContent>;
  display: boolean;
  details?: unknown;
  timestamp: number;
}

/** The summary of a branch the conversation came back from (made from a `branch_summary` entry). */
export interface BranchSummaryMessage {
  role: "branchSummary";
  summary: string;
  fromId: string;
  timestamp: number;
}

/** The summary that replaces compacted history (made from a `compaction` entry). */
export interface CompactionSummaryMessage {
  role: "compactionSummary";
  summary: string;
  tokensBefore: number;
  timestamp: number;
}

/**
 * Extension point for custom message roles. Add roles by declaration merging:
 *
 * ```ts
 * declare module "@arbor/agent-loop" {
 *   interface CustomAgentMessages {
 *     note: { role: "note"; text: string; timestamp: number };
 *   }
 * }
 * ```
 *
 * Each property's type must have a `role` string. Such messages are dropped by the default
 * `convertToLlm` unless you convert them yourself.
 */
// biome-ignore lint/suspicious/noEmptyInterface: extended by declaration merging
export interface CustomAgentMessages {}

/** Every message an agent transcript can hold: LLM messages, Arbor's roles and custom roles. */
export type AgentMessage =
  | UserMessage
  | AssistantMessage
  | ToolResultMessage
  | SystemMessage
  | BashExecutionMessage
  | CustomMessage
  | BranchSummaryMessage
  | CompactionSummaryMessage
  | CustomAgentMessages[keyof CustomAgentMessages];
