import type { AgentMessage } from "@arbor/agent-loop";
import {
  DEFAULT_FILE_TOOL_MAPPING,
  type FileOperationKind,
  type FileToolMapping,
  type FileToolRule,
} from "../files/file-operations";
import { branchSummaryContext } from "./branch-summary-context";
import { FailureLog } from "./failure-log";
import {
  clip,
  clipAtBoundary,
  contentToText,
  firstLine,
  leadSentences,
  pushUnique,
  sentences,
  squash,
} from "./text-utils";

/** The last assistant text of the range; `final` when it ended a turn (no tool calls, normal stop). */
export interface LastAssistantText {
  text: string;
  final: boolean;
}

/** Options of {@link digestMessages}. */
export interface DigestOptions {
  /** Tool-name mapping for file tracking (default: `read` / `write` / `edit`). */
  mapping?: FileToolMapping;
  /** A request still open before the range starts (an earlier checkpoint's In Progress item). */
  openRequest?: string | undefined;
  /** Blocked lines of an earlier checkpoint, to be resolved by later successes in the range. */
  carriedFailures?: readonly string[];
}

/** What the offline summarizer extracts from a message range before rendering it. */
export interface SessionDigest {
  /** Substantive user requests in order (greetings and acknowledgements stripped). */
  requests: string[];
  constraints: string[];
  /** The lead sentences of final answers to requests, in order. */
  outcomes: string[];
  decisions: string[];
  failures: FailureLog;
  modified: string[];
  read: string[];
  commands: string[];
  otherTools: Map<string, number>;
  notes: string[];
  /** Context lines from summaries of branches the user left (their decisions go to `decisions`). */
  branchContext: string[];
  /** The last user request has no final assistant answer after it. */
  openRequest: string | undefined;
  lastAssistant: LastAssistantText | undefined;
}

const CONSTRAINT_PATTERN =
  /\b(must|mustn't|must not|never|always|don't|do not|should|shouldn't|should not|prefer|avoid|without|only|keep|make sure|required?|no more than|at most|at least)\b/i;
const DECISION_PATTERN =
  /\b(decided|decide to|chose|choose|will use|going with|instead of|rather than|switched to|switching to|approach|because|so that|so (?:I|we)(?:'ll| will)|so (?:it|they) can)\b/i;
const TRIVIAL_REQUEST =
  /^(ok(ay)?|yes|yep|no|thanks?( you)?|continue|go on|go ahead|proceed|sure|do it|hi|hello|hey|great|perfect|nice|cool)[.!]*$/i;
/** Leading greetings and acknowledgements ("Hi!", "Great.", "Thanks!") that carry no request. */
const PLEASANTRY =
  /^(?:hi|hello|hey|hi there|hello there|great|perfect|nice|cool|awesome|thanks|thank you|ok|okay|good|sounds good|looks good)[.!]+\s+/i;
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
  if (!ok) {
    digest.failures.toolFailed(
      call.name,
      call.target,
      prefix + (errorLine(output) || "failed without output"),
    );
    return;
  }
  digest.failures.toolSucceeded(call.name, call.target);
  if (call.kind === "write" || call.kind === "edit")
    for (const path of call.paths) pushUnique(digest.modified, path);
  else if (call.kind === "read") for (const path of call.paths) pushUnique(digest.read, path);
  else if (call.name === "bash" && call.target) pushUnique(digest.commands, call.target);
  else digest.otherTools.set(call.name, (digest.otherTools.get(call.name) ?? 0) + 1);
}

/** `text` without leading greetings and acknowledgements, squashed. */
function withoutPleasantries(text: string): string {
  let rest = squash(text);
  for (let match = PLEASANTRY.exec(rest); match; match = PLEASANTRY.exec(rest))
    rest = rest.slice(match[0].length);
  return rest;
}

function digestUserText(digest: SessionDigest, text: string): void {
  const request = withoutPleasantries(text);
  if (request.length === 0) return;
  for (const sentence of sentences(text)) {
    if (CONSTRAINT_PATTERN.test(sentence)) pushUnique(digest.constraints, clip(squash(sentence), 240));
  }
  if (TRIVIAL_REQUEST.test(request)) {
    // "continue", "yes": the work goes on with the request before it.
    digest.openRequest = digest.openRequest ?? digest.requests.at(-1) ?? request;
    return;
  }
  const clipped = clipAtBoundary(request, 400);
  pushUnique(digest.requests, clipped);
  digest.openRequest = clipped;
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
  const stopReason = message.stopReason as string;
  if (stopReason === "error")
    digest.failures.modelFailed(firstLine(message.errorMessage ?? "") || "unknown error");
  else if (stopReason === "aborted") digest.failures.modelAborted(firstLine(message.errorMessage ?? ""));
  else digest.failures.modelSucceeded();
  if (text.length === 0) return;
  const final = !hasCalls && stopReason === "stop";
  digest.lastAssistant = { text, final };
  for (const sentence of sentences(text)) {
    if (DECISION_PATTERN.test(sentence))
      pushUnique(digest.decisions, clipAtBoundary(squash(sentence).replace(/:$/, "."), 240));
  }
  if (final && digest.openRequest !== undefined) {
    const lead = leadSentences(text, 240) || clipAtBoundary(squash(text), 240);
    // "Done: the README …" reads twice under Done.
    const answer = lead.replace(/^(?:all )?done[:.!]\s+(\S)/i, (_, first: string) => first.toUpperCase());
    pushUnique(digest.outcomes, answer);
    digest.openRequest = undefined;
  }
}

/**
 * Walks a message range once, in order, and extracts requests, constraints, tool activity, failures
 * (resolved by later successes, see {@link FailureLog}), decisions, answers and the last assistant
 * text. Pure: the messages are not mutated.
 */
export function digestMessages(
  messages: readonly AgentMessage[],
  options: DigestOptions = {},
): SessionDigest {
  const mapping = options.mapping ?? DEFAULT_FILE_TOOL_MAPPING;
  const groupOf = (name: string) => {
    const kind = ruleFor(mapping, name)?.kind;
    return kind === "write" || kind === "edit" ? "\u0000file-change" : name;
  };
  const digest: SessionDigest = {
    requests: [],
    constraints: [],
    outcomes: [],
    decisions: [],
    failures: new FailureLog(groupOf),
    modified: [],
    read: [],
    commands: [],
    otherTools: new Map(),
    notes: [],
    branchContext: [],
    openRequest: options.openRequest,
    lastAssistant: undefined,
  };
  for (const line of options.carriedFailures ?? []) digest.failures.carryOver(line);
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
      case "branchSummary": {
        const context = branchSummaryContext(message.summary);
        for (const decision of context.decisions) pushUnique(digest.decisions, decision);
        for (const line of context.critical) pushUnique(digest.branchContext, line);
        break;
      }
      default:
        break;
    }
  }
  return digest;
}
