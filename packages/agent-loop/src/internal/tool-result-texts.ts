/** Error text of a tool call that was pending or not yet started when the run was aborted. */
export const ABORTED_TOOL_TEXT = "The run was aborted before this tool call finished.";

/** Error text of a tool call skipped because its response hit the output token limit. */
export function truncatedToolCallText(toolName: string): string {
  return `Skipped "${toolName}": this response was cut off by the output token limit, so the call's arguments may be incomplete. If the call is still needed, issue it again in full.`;
}
