import { readFileSync } from "node:fs";
import { type AgentMessage, convertToLlm, normalizeContext } from "@arbor/agent-loop";
import type { Message, Model } from "@arbor/providers";
import { openSessionStore, type SessionEntry } from "@arbor/session-store";

interface ToolCallLike {
  type: string;
  id?: string;
}

function toolCallIds(message: { [key: string]: unknown }): string[] {
  return Array.isArray(message.content)
    ? (message.content as ToolCallLike[]).filter((b) => b.type === "toolCall").map((b) => String(b.id))
    : [];
}

/**
 * Checks that a sequence of messages holds only whole turns: an assistant message that stopped for
 * tool use is followed at once by one result per tool call (and by nothing else first); a result
 * always answers a call of the assistant message just before it; an errored or aborted assistant
 * message has no results at all (its calls were never run). Returns the problems found.
 */
export function findTurnProblems(
  messages: readonly { role: string; [key: string]: unknown }[],
  where: string,
): string[] {
  const problems: string[] = [];
  let open: Set<string> | undefined;
  const answeredNever = new Set<string>();
  messages.forEach((message, i) => {
    if (message.role === "toolResult") {
      const id = String(message.toolCallId);
      if (answeredNever.has(id))
        problems.push(`${where}[${i}]: result for a call of an errored or aborted message`);
      else if (!open?.delete(id)) problems.push(`${where}[${i}]: result ${id} answers no pending call`);
      return;
    }
    if (open && open.size > 0)
      problems.push(`${where}[${i}]: ${message.role} before the results of ${[...open]}`);
    open = undefined;
    if (message.role !== "assistant") return;
    const ids = toolCallIds(message);
    if (message.stopReason === "toolUse") open = new Set(ids);
    else if (message.stopReason === "error" || message.stopReason === "aborted")
      for (const id of ids) answeredNever.add(id);
  });
  if (open && open.size > 0) problems.push(`${where}: the last turn lacks the results of ${[...open]}`);
  return problems;
}

/**
 * Checks a session file after a provider fault: it ends with a newline and every line parses; it
 * reopens (read-only) without issues; its current branch holds only whole turns
 * ({@link findTurnProblems}); and what the provider would be sent next (the projection through
 * `convertToLlm` and the loop's default `normalizeContext` seam) has no errored or aborted message and no call
 * without its result.
 */
export function checkSessionAfterFault(file: string, model: Model): string[] {
  const problems: string[] = [];
  const text = readFileSync(file, "utf8");
  if (!text.endsWith("\n")) problems.push("the file does not end with a newline");
  text
    .slice(0, -1)
    .split("\n")
    .forEach((line, i) => {
      try {
        JSON.parse(line);
      } catch {
        problems.push(`line ${i + 1} does not parse`);
      }
    });
  const store = openSessionStore(file, { storage: { readOnly: true } });
  try {
    for (const issue of store.issues) problems.push(`issue ${issue.code}: ${issue.message}`);
    const branch = store
      .getBranch()
      .filter((entry): entry is Extract<SessionEntry, { type: "message" }> => entry.type === "message")
      .map((entry) => entry.message as unknown as { role: string });
    problems.push(...findTurnProblems(branch, "branch"));
    const sent: Message[] = normalizeContext({
      messages: convertToLlm(store.getProjection().messages as AgentMessage[]),
      systemPrompt: undefined,
      tools: [],
      model,
    }).messages;
    for (const [i, message] of sent.entries()) {
      if (
        message.role === "assistant" &&
        (message.stopReason === "error" || message.stopReason === "aborted")
      )
        problems.push(`provider view[${i}]: an ${message.stopReason} assistant message would be sent`);
    }
    problems.push(...findTurnProblems(sent as unknown as { role: string }[], "provider view"));
  } finally {
    store.close();
  }
  return problems;
}

/**
 * Checks a request body as the server received it: every tool call (Anthropic `tool_use`, OpenAI
 * `tool_calls`) is answered by the next message(s) (`tool_result` blocks / `tool` messages), and no
 * result answers a call that was not made just before.
 */
export function findWireRequestProblems(body: unknown, api: "anthropic" | "openai"): string[] {
  const messages = ((body as { messages?: unknown[] }).messages ?? []) as Array<Record<string, unknown>>;
  const problems: string[] = [];
  let open = new Set<string>();
  messages.forEach((message, i) => {
    const blocks = Array.isArray(message.content) ? (message.content as Array<Record<string, unknown>>) : [];
    if (api === "openai" && message.role === "tool") {
      if (!open.delete(String(message.tool_call_id)))
        problems.push(`request message ${i}: a result answers no call`);
      return;
    }
    const results =
      api === "anthropic"
        ? blocks.filter((b) => b.type === "tool_result").map((b) => String(b.tool_use_id))
        : [];
    for (const id of results)
      if (!open.delete(id)) problems.push(`request message ${i}: result ${id} answers no call`);
    if (open.size > 0) problems.push(`request message ${i}: calls ${[...open]} are not answered`);
    const calls =
      api === "anthropic"
        ? blocks.filter((b) => b.type === "tool_use").map((b) => String(b.id))
        : ((message.tool_calls as Array<{ id: string }> | undefined) ?? []).map((c) => c.id);
    open = new Set(message.role === "assistant" ? calls : []);
  });
  if (open.size > 0) problems.push(`the request ends with unanswered calls ${[...open]}`);
  return problems;
}
