export type {
  AgentMessage,
  BashExecutionMessage,
  BranchSummaryMessage,
  CompactionSummaryMessage,
  CustomAgentMessages,
  CustomMessage,
} from "./agent-message";
export {
  BRANCH_SUMMARY_PREFIX,
  BRANCH_SUMMARY_SUFFIX,
  COMPACTION_SUMMARY_PREFIX,
  COMPACTION_SUMMARY_SUFFIX,
  convertToLlm,
  formatBashExecution,
} from "./convert-to-llm";
export {
  renderSystemPrompt,
  replaySystemMessages,
  resolveCurrentTools,
  systemContentText,
} from "./replay-system-messages";
