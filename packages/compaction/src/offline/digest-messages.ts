import type { AgentMessage } from "@arbor/agent-loop";
import {
  DEFAULT_FILE_TOOL_MAPPING,
  type FileOperationKind,
  type FileToolMapping,
  type FileToolRule,
} from "../files/file-operations";
import { clip, contentToText, firstLine, pushUnique, sentences, squash } from "./text-utils";

/** A failure seen in the messages; `resolved` once the same action later succeeded. */
export interface DigestError {
  key: string;
  text: string;
  resolved: boolean;
}

/** What the offline summarizer extracts from a message range before rendering it. */
export interface SessionDigest {
  requests: string[];
  constraints: string[];
  outcomes: string[];
  decisions: string[];
  errors: DigestError[];
  modified: string[];
  read: string[];
  commands: string[];
  otherTools: Map<string, number>;
  notes: string[];
  embeddedSummaries: string[];
  /** The last user request has no final assistant answer after it. */
  openRequest: string | undefined;
  lastAssistantText: string | undefined;
}

const CONSTRAINT_PATTERN =
  /\b(must|mustn't|must not|never|always|don't|do not|should|shouldn't|should not|prefer|avoid|without|only|keep|make sure|required?|no more than|at most|at least)\b/i;
const DECISION_PATTERN =
  /\b(decided|decide to|chose|choose|will use|going with|instead of|rather than|switched to|switching to|approach|because|so that)\b/i;
const TRIVIAL_REQUEST =
  /^(ok(ay)?|yes|yep|no|thanks?( you)?|continue|go on|go ahead|proceed|sure|do it)[.!]?$/i;
const TARGET_KEYS = ["path", "file_path", "command", "pattern", "query", "url", "name"];

interface PendingCall {
  name: string;
  target: string;
  kind: FileOperationKind | undefined;
  paths: string[];
}

function ruleFor(mapping: FileToolMapping, name: string): FileToolRule | undefined {
  if (!Object.hasOwn(mapping, name)) return undefined;
  const rule = mapping[name] as FileToolRule | FileOperationKind;
  return typeof rule === "string" ? { kind: rule } : rule;
}

function describeCall(name: string, args: Record<string, unknown>, mapping: FileToolMapping): PendingCall {
  const rule = ruleFor(mapping, name);
  const paths: string[] = [];
  for (const key of rule?.pathKeys ?? ["path"]) {
    const value = args[key];
    if (typeof value === "string" && value.length > 0) paths.push(value);
    else if (Array.isArray(value)) for (const item of value) if (typeof item === "string") paths.push(item);
  }
  let target = paths.join(", ");
  if (!target) {
    const key = TARGET_KEYS.find((candidate) => typeof args[candidate] === "string");
    const fallback = key ? args[key] : Object.values(args).find((value) => typeof value === "string");
    target = typeof fallback === "string" ? clip(squash(fallback), 120) : "";
  }
  return { name, target, kind: rule?.kind, paths };
}

const STRONG_ERROR = /\berror\b|exception|panic|traceback|fatal/i;
const WEAK_ERROR = /fail|cannot|can't|not found|expected|denied|invalid|refused|timed? ?out/i;

/** The most telling line of a failure's output: an error line, else a failure line, else the first line. */
function errorLine(output: string): string {
  const lines = output.split("\n");
  for (const pattern of [STRONG_ERROR, WEAK_ERROR]) {
    const line = lines.find((candidate) => pattern.test(candidate));
    if (line !== undefined) return line.trim();
  }
  return firstLine(output);
}

function recordResult(
  digest: SessionDigest,
  call: PendingCall,
  ok: boolean,
  output: string,
  prefix = "",
): void {
  const key = `${call.name}\u0000${call.target}`;
  if (!ok) {
    const detail = clip(prefix + (errorLine(output) || "failed without output"), 300);
    digest.errors.push({
      key,
      text: `\`${call.name}\` ${call.target ? `\`${call.target}\` ` : ""}failed: ${detail}`,
      resolved: false,
    });
    return;
  }
  for (const error of digest.errors) if (error.key === key) error.resolved = true;
  if (call.kind === "write" || call.kind === "edit")
    for (const path of call.paths) pushUnique(digest.modified, path);
  else if (call.kind === "read") for (const path of call.paths) pushUnique(digest.read, path);
  else if (call.name === "bash" && call.target) pushUnique(digest.commands, call.target);
  else digest.otherTools.set(call.name, (digest.otherTools.get(call.name) ?? 0) + 1);
}

function digestUserText(digest: SessionDigest, text: string): void {
  const request = squash(text);
  if (request.length === 0) return;
  if (!TRIVIAL_REQUEST.test(request)) pushUnique(digest.requests, clip(request, 400));
  for (const sentence of sentences(text)) {
    if (CONSTRAINT_PATTERN.test(sentence)) pushUnique(digest.constraints, clip(squash(sentence), 240));
  }
  digest.openRequest = clip(request, 400);
}

function digestAssistant(
  digest: SessionDigest,
  message: Extract<AgentMessage, { role: "assistant" }>,
  calls: Map<string, PendingCall>,
  mapping: FileToolMapping,
): void {
  const text = contentToText(message.content).trim();
  let hasCalls = false;
  for (const block of message.content ?? []) {
    if (block.type !== "toolCall") continue;
    hasCalls = true;
    const args = block.arguments !== null && typeof block.arguments === "object" ? block.arguments : {};
    calls.set(block.id, describeCall(block.name, args, mapping));
  }
  if ((message.stopReason as string) === "error") {
    const reason = clip(firstLine(message.errorMessage ?? "") || "unknown error", 300);
    digest.errors.push({
      key: `model\u0000${reason}`,
      text: `The model request failed: ${reason}`,
      resolved: false,
    });
  }
  if (text.length === 0) return;
  digest.lastAssistantText = text;
  for (const sentence of sentences(text)) {
    if (DECISION_PATTERN.test(sentence)) pushUnique(digest.decisions, clip(squash(sentence), 240));
  }
  if (!hasCalls && message.stopReason === "stop" && digest.openRequest !== undefined) {
    const answer = clip(squash(sentences(text).slice(0, 2).join(" ") || text), 240);
    pushUnique(digest.outcomes, answer);
    digest.openRequest = undefined;
  }
}

/**
 * Walks a message range once and extracts requests, constraints, tool activity, errors (marked
 * resolved when the same action later succeeds), decisions and the last assistant text. Pure.
 */
export function digestMessages(
  messages: readonly AgentMessage[],
  mapping: FileToolMapping = DEFAULT_FILE_TOOL_MAPPING,
): SessionDigest {
  const digest: SessionDigest = {
    requests: [],
    constraints: [],
    outcomes: [],
    decisions: [],
    errors: [],
    modified: [],
    read: [],
    commands: [],
    otherTools: new Map(),
    notes: [],
    embeddedSummaries: [],
    openRequest: undefined,
    lastAssistantText: undefined,
  };
  const calls = new Map<string, PendingCall>();
  for (const message of messages) {
    switch (message.role) {
      case "user":
        digestUserText(digest, contentToText(message.content));
        break;
      case "assistant":
        digestAssistant(digest, message, calls, mapping);
        break;
      case "toolResult": {
        const call = calls.get(message.toolCallId) ?? describeCall(message.toolName, {}, mapping);
        recordResult(digest, call, !message.isError, contentToText(message.content));
        break;
      }
      case "bashExecution": {
        const ok = !message.cancelled && (message.exitCode === 0 || message.exitCode === undefined);
        const call: PendingCall = {
          name: "bash",
          target: clip(squash(message.command), 120),
          kind: undefined,
          paths: [],
        };
        const prefix = message.cancelled ? "cancelled; " : `exit code ${message.exitCode}; `;
        recordResult(digest, call, ok, message.output, prefix);
        break;
      }
      case "custom":
        pushUnique(digest.notes, clip(squash(contentToText(message.content)), 300));
        break;
      case "compactionSummary":
      case "branchSummary":
        digest.embeddedSummaries.push(message.summary);
        break;
      default:
        break;
    }
  }
  return digest;
}
