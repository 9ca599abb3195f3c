export type {
  AgentMessage,
  BashExecutionMessage,
  BranchSummaryMessage,
  CompactionSummaryMessage,
  CustomAgentMessages,
  CustomMessage,
} from "./agent-message";
