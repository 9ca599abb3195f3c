export type {
  AgentMessage,
  BashExecutionMessage,
  BranchSummaryMessage,
  CompactionSummaryMessage,
  CustomAgentMessages,
  CustomMessage,
} from "./agent-message";
export {
  renderSystemPrompt,
  replaySystemMessages,
  resolveCurrentTools,
  systemContentText,
} from "./replay-system-messages";
