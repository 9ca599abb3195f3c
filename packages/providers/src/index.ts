export { createEmptyUsage } from "./create-empty-usage";
export { ArborError } from "./errors/arbor-error";
export type {
  AssistantMessage,
  ImageContent,
  Message,
  StopReason,
  SystemMessage,
  TextContent,
  ThinkingContent,
  Tool,
  ToolCall,
  ToolResultMessage,
  TranscriptMessage,
  Usage,
  UsageCost,
  UserMessage,
} from "./message";
