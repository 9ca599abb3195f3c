export type {
  AgentEndEvent,
  AgentEvent,
  AgentEventType,
  AgentLoopEvents,
  AgentStartEvent,
  MessageEndEvent,
  MessageStartEvent,
  MessageUpdateEvent,
  ToolExecutionEndEvent,
  ToolExecutionStartEvent,
  ToolExecutionUpdateEvent,
  TurnEndEvent,
  TurnStartEvent,
} from "./agent-event";
export type {
  AgentLoopConfig,
  AgentLoopResult,
  NextTurnUpdate,
  NormalizeContextInput,
  NormalizedContext,
  PrepareNextTurnContext,
  ToolCallDecision,
  ToolCallInfo,
  ToolCallResultInfo,
  ToolResultReplacement,
} from "./agent-loop-config";
export type { AgentLoopErrorCode } from "./agent-loop-error";
export { AgentLoopError } from "./agent-loop-error";
export type {
  AgentMessage,
  BashExecutionMessage,
  BranchSummaryMessage,
  CompactionSummaryMessage,
  CustomAgentMessages,
  CustomMessage,
} from "./agent-message";
export type {
  AgentTool,
  AgentToolExecuteContext,
  AgentToolResult,
  AgentToolUpdate,
  ToolExecutionMode,
} from "./agent-tool";
export {
  BRANCH_SUMMARY_PREFIX,
  BRANCH_SUMMARY_SUFFIX,
  COMPACTION_SUMMARY_PREFIX,
  COMPACTION_SUMMARY_SUFFIX,
  convertToLlm,
  formatBashExecution,
} from "./convert-to-llm";
export { normalizeContext } from "./normalize-context";
export {
  renderSystemPrompt,
  replaySystemMessages,
  resolveCurrentTools,
  systemContentText,
} from "./replay-system-messages";
export { runAgentLoop } from "./run-agent-loop";
