import type { SessionDigest } from "./digest-messages";
import type { Failure } from "./failure-log";
import { pushUnique } from "./text-utils";

/** The aggregated activity a Done section shows: files, commands, other tools, fixed failures. */
export interface Activity {
  modified: string[];
  read: string[];
  commands: string[];
  otherTools: Map<string, number>;
  /** Failure label → how many times it was fixed. */
  fixed: Map<string, number>;
}

const FIXED_PREFIX = "Failures fixed along the way: ";

/** Commands that only look around (listing, reading, searching, git status) are not progress. */
const INSPECTION_COMMAND =
  /^(?:ls|cat|head|tail|less|grep|rg|find|pwd|echo|wc|tree|which|git (?:status|diff|log|show|branch))\b/;

function isInspectionOnly(command: string): boolean {
  const parts = command.split(/&&|\|\||;|\|/).map((part) => part.trim());
  return parts.every((part) => part.length === 0 || INSPECTION_COMMAND.test(part));
}

function emptyActivity(): Activity {
  return { modified: [], read: [], commands: [], otherTools: new Map(), fixed: new Map() };
}

function codeSpans(text: string): string[] {
  return [...text.matchAll(/`([^`]+)`/g)].map((match) => match[1] as string);
}

/** Splits on `; ` outside code spans (a command such as `a; b` stays whole). */
function splitParts(text: string): string[] {
  const parts: string[] = [];
  let current = "";
  let inCode = false;
  for (let index = 0; index < text.length; index++) {
    const char = text[index] as string;
    if (char === "`") inCode = !inCode;
    if (!inCode && char === ";" && text[index + 1] === " ") {
      parts.push(current);
      current = "";
      index++;
      continue;
    }
    current += char;
  }
  if (current) parts.push(current);
  return parts;
}

function addCount(map: Map<string, number>, key: string, count: number): void {
  map.set(key, (map.get(key) ?? 0) + count);
}

/**
 * Splits an earlier checkpoint's Done items into the activity lines this summarizer wrote (parsed
 * back, so the new checkpoint shows one merged line of each kind) and the other items, kept in order.
 * Lists shortened with "and N more" lose their hidden part (file lists also travel in the file tags).
 */
export function splitPreviousDone(done: readonly string[]): { activity: Activity; rest: string[] } {
  const activity = emptyActivity();
  const rest: string[] = [];
  for (const item of done) {
    if (item.startsWith("Modified `"))
      for (const path of codeSpans(item)) pushUnique(activity.modified, path);
    else if (item.startsWith("Read `")) for (const path of codeSpans(item)) pushUnique(activity.read, path);
    else if (item.startsWith("Ran successfully: `") || /^Ran `.*` successfully$/.test(item))
      for (const command of codeSpans(item)) pushUnique(activity.commands, command);
    else if (item.startsWith("Also used `"))
      for (const match of item.matchAll(/`([^`]+)`(?: ×(\d+))?/g))
        addCount(activity.otherTools, match[1] as string, Number(match[2] ?? 1));
    else if (item.startsWith(FIXED_PREFIX))
      for (const part of splitParts(item.slice(FIXED_PREFIX.length))) {
        const counted = /^(.*) ×(\d+)$/.exec(part);
        addCount(activity.fixed, counted ? (counted[1] as string) : part, Number(counted?.[2] ?? 1));
      }
    else rest.push(item);
  }
  return { activity, rest };
}

function fixedLabel(failure: Failure): string {
  if (failure.kind === "model") return `retried provider error (${failure.label})`;
  if (failure.kind === "aborted") return "continued after an aborted response";
  return failure.label;
}

function formatList(paths: readonly string[], max = 8): string {
  const shown = paths.slice(0, max).map((path) => `\`${path}\``);
  return paths.length > max ? `${shown.join(", ")} and ${paths.length - max} more` : shown.join(", ");
}

/**
 * The activity of the range merged after the earlier checkpoint's, as at most five Done items: fixed
 * failures (one line, counted), files modified, files only read, commands run (the newest six; commands
 * that only look around left out), other tools used (counted). Pure.
 */
export function activityItems(previous: Activity, digest: SessionDigest): string[] {
  const activity = emptyActivity();
  for (const [label, count] of previous.fixed) addCount(activity.fixed, label, count);
  for (const failure of digest.failures.resolved()) addCount(activity.fixed, fixedLabel(failure), 1);
  for (const path of [...previous.modified, ...digest.modified]) pushUnique(activity.modified, path);
  for (const path of [...previous.read, ...digest.read]) pushUnique(activity.read, path);
  for (const command of [...previous.commands, ...digest.commands])
    if (!isInspectionOnly(command)) pushUnique(activity.commands, command);
  for (const [name, count] of [...previous.otherTools, ...digest.otherTools])
    addCount(activity.otherTools, name, count);

  const items: string[] = [];
  if (activity.fixed.size > 0) {
    const parts = [...activity.fixed].map(([label, count]) => (count > 1 ? `${label} ×${count}` : label));
    items.push(`${FIXED_PREFIX}${parts.join("; ")}`);
  }
  if (activity.modified.length > 0) items.push(`Modified ${formatList(activity.modified)}`);
  const readOnly = activity.read.filter((path) => !activity.modified.includes(path));
  if (readOnly.length > 0) items.push(`Read ${formatList(readOnly)}`);
  const commands = activity.commands;
  if (commands.length === 1) items.push(`Ran \`${commands[0]}\` successfully`);
  else if (commands.length > 1) {
    const recent = commands.slice(-6);
    const more = commands.length - recent.length;
    const earlier = more === 1 ? "1 earlier command" : `${more} earlier commands`;
    items.push(
      `Ran successfully: ${recent.map((command) => `\`${command}\``).join(", ")}${more > 0 ? ` and ${earlier}` : ""}`,
    );
  }
  if (activity.otherTools.size > 0) {
    const tools = [...activity.otherTools].map(
      ([name, count]) => `\`${name}\`${count > 1 ? ` ×${count}` : ""}`,
    );
    items.push(`Also used ${tools.join(", ")}`);
  }
  return items;
}
