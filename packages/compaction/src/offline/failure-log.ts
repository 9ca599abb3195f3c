import { clip, squash } from "./text-utils";

/** Where a failure came from: a tool call or shell run, a model request, or an interrupted response. */
export type FailureKind = "tool" | "model" | "aborted";

/** One failure seen in the messages (or carried over from an earlier checkpoint's Blocked list). */
export interface Failure {
  kind: FailureKind;
  /** The line shown in Blocked / Critical Context. */
  text: string;
  /** Short label for the "resolved along the way" line: `` `npm test` ``, `` `edit` `src/a.ts` ``. */
  label: string;
  /** Becomes true once the action later succeeded (or, for a model error, a later response arrived). */
  resolved: boolean;
  /** Tool-level key (tool, target); undefined for model failures and unparsed carried-over lines. */
  key: string | undefined;
  /** Shell commands: the parts that still have to succeed later for the failure to count as resolved. */
  pendingParts: Set<string>;
}

const SHELL_TOOLS = new Set(["bash", "shell", "sh", "exec"]);
const CARRIED_TOOL_FAILURE = /^`([^`]+)`(?: `([^`]+)`)? failed: /;
const CARRIED_MODEL_FAILURE = /^The model request failed: /;

/**
 * The parts of a shell command whose success a successful run proves: the pieces of an `&&` chain;
 * of a piece with `;` only its last command; a piece with `||` proves nothing. Whitespace-squashed.
 */
export function provenCommandParts(command: string): string[] {
  const parts: string[] = [];
  for (const piece of squash(command).split("&&")) {
    if (piece.includes("||")) continue;
    const last = piece.split(";").at(-1)?.trim() ?? "";
    if (last.length > 0) parts.push(last);
  }
  return parts;
}

function toolKey(tool: string, target: string): string {
  return `${tool}\u0000${target}`;
}

/**
 * Tracks failures in message order and marks them resolved by later successes. Resolution rules:
 * - a tool failure is resolved by a later success of the same tool (or the same file-change group)
 *   on the same target;
 * - a failed shell command is resolved by a later successful run of the same command, or once every
 *   part of it (`a && b`) succeeded later, alone or inside another successful `&&` chain;
 * - a model error or an aborted response is resolved by any later successful model response.
 */
export class FailureLog {
  readonly failures: Failure[] = [];

  /**
   * @param groupOf maps a tool name to the name used in keys, so that tools doing the same thing
   *   resolve each other's failures (a failed `edit` of a file is resolved by a later `write` of it).
   */
  constructor(private readonly groupOf: (tool: string) => string = (tool) => tool) {}

  /** Records a failed tool call or shell run. */
  toolFailed(tool: string, target: string, detail: string): void {
    const shell = SHELL_TOOLS.has(tool) && target.length > 0;
    this.failures.push({
      kind: "tool",
      text: `\`${tool}\` ${target ? `\`${target}\` ` : ""}failed: ${clip(detail, 300)}`,
      label: shell ? `\`${target}\`` : `\`${tool}\`${target ? ` \`${target}\`` : ""}`,
      resolved: false,
      key: toolKey(this.groupOf(tool), target),
      pendingParts: new Set(shell ? provenCommandParts(target) : []),
    });
  }

  /** Records a successful tool call or shell run; resolves the failures it answers. */
  toolSucceeded(tool: string, target: string): void {
    const key = toolKey(this.groupOf(tool), target);
    const proven = SHELL_TOOLS.has(tool) ? provenCommandParts(target) : [];
    for (const failure of this.failures) {
      if (failure.resolved || failure.kind !== "tool") continue;
      if (failure.key === key) failure.resolved = true;
      else if (proven.length > 0 && failure.pendingParts.size > 0) {
        for (const part of proven) failure.pendingParts.delete(part);
        if (failure.pendingParts.size === 0) failure.resolved = true;
      }
    }
  }

  /** Records a failed model request (`stopReason: "error"`). */
  modelFailed(reason: string): void {
    const short = clip(reason, 300);
    this.failures.push({
      kind: "model",
      text: `The model request failed: ${short}`,
      label: clip(reason, 80),
      resolved: false,
      key: undefined,
      pendingParts: new Set(),
    });
  }

  /** Records a response cut off by an abort (`stopReason: "aborted"`). */
  modelAborted(reason: string | undefined): void {
    this.failures.push({
      kind: "aborted",
      text: `The last model response was aborted before it finished${reason ? ` (${clip(reason, 200)})` : ""}`,
      label: "an aborted response",
      resolved: false,
      key: undefined,
      pendingParts: new Set(),
    });
  }

  /** Records a successful model response; resolves every earlier model error and abort. */
  modelSucceeded(): void {
    for (const failure of this.failures) if (failure.kind !== "tool") failure.resolved = true;
  }

  /**
   * Re-adds a line from an earlier checkpoint's Blocked list, so that a later success can resolve it.
   * Lines this summarizer wrote are understood (tool, target, command); other lines stay unresolved.
   */
  carryOver(line: string): void {
    const tool = CARRIED_TOOL_FAILURE.exec(line);
    const model = CARRIED_MODEL_FAILURE.test(line);
    const name = tool?.[1] ?? "";
    const target = tool?.[2] ?? "";
    const shell = SHELL_TOOLS.has(name) && target.length > 0;
    this.failures.push({
      kind: model ? "model" : "tool",
      text: line,
      label: shell ? `\`${target}\`` : tool ? `\`${name}\`${target ? ` \`${target}\`` : ""}` : clip(line, 80),
      resolved: false,
      key: tool ? toolKey(this.groupOf(name), target) : undefined,
      pendingParts: new Set(shell ? provenCommandParts(target) : []),
    });
  }

  /** Failures not resolved by the end, in the order they happened. */
  unresolved(): Failure[] {
    return this.failures.filter((failure) => !failure.resolved);
  }

  /** Failures resolved later, in the order they happened. */
  resolved(): Failure[] {
    return this.failures.filter((failure) => failure.resolved);
  }
}
