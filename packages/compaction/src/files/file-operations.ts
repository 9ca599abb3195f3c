import type { AgentMessage } from "@arbor/agent-loop";

/**
 * Files touched by the summarized messages, by kind. Paths are stored verbatim (no normalization).
 * The sets are mutable accumulators: {@link extractFileOpsFromMessage} adds to them.
 */
export interface FileOperations {
  read: Set<string>;
  written: Set<string>;
  edited: Set<string>;
}

/** What a tool call does to the file named in its arguments. */
export type FileOperationKind = "read" | "write" | "edit";

/** How one tool's calls are tracked: the kind, and which argument keys hold a path (default `["path"]`). */
export interface FileToolRule {
  kind: FileOperationKind;
  /** Argument keys holding a path (a string) or several paths (an array of strings). */
  pathKeys?: readonly string[];
}

/** Tool name → rule (or just the kind, with the `path` argument). Tool names are matched exactly. */
export type FileToolMapping = Readonly<Record<string, FileToolRule | FileOperationKind>>;

/** pi's mapping: `read`, `write` and `edit`, each with its `path` argument. */
export const DEFAULT_FILE_TOOL_MAPPING: FileToolMapping = Object.freeze({
  read: "read",
  write: "write",
  edit: "edit",
});

const DEFAULT_PATH_KEYS = ["path"] as const;

/** Returns empty file-operation sets (a fresh object each call). */
export function createFileOps(): FileOperations {
  return { read: new Set(), written: new Set(), edited: new Set() };
}

function addPath(kind: FileOperationKind, path: string, fileOps: FileOperations): void {
  if (kind === "read") fileOps.read.add(path);
  else if (kind === "write") fileOps.written.add(path);
  else fileOps.edited.add(path);
}

function recordCall(name: unknown, args: unknown, fileOps: FileOperations, mapping: FileToolMapping): void {
  if (typeof name !== "string" || !Object.hasOwn(mapping, name)) return;
  if (args === null || typeof args !== "object") return;
  const rule = mapping[name] as FileToolRule | FileOperationKind;
  const kind = typeof rule === "string" ? rule : rule.kind;
  const keys = typeof rule === "string" ? DEFAULT_PATH_KEYS : (rule.pathKeys ?? DEFAULT_PATH_KEYS);
  for (const key of keys) {
    const value = (args as Record<string, unknown>)[key];
    if (typeof value === "string") {
      if (value.length > 0) addPath(kind, value, fileOps);
    } else if (Array.isArray(value)) {
      for (const item of value) if (typeof item === "string" && item.length > 0) addPath(kind, item, fileOps);
    }
  }
}

interface NestedCallsCarrier {
  nestedCalls?: { calls?: Array<{ name?: unknown; arguments?: unknown }> };
}

/**
 * Adds the file operations of one message to `fileOps` (mutates it):
 * - an `assistant` message contributes each `toolCall` block;
 * - a `toolResult` contributes each call recorded in `nestedCalls.calls` (calls made from scripts);
 * - other roles contribute nothing.
 *
 * A call counts only when its tool name is in `mapping` and its path argument is a non-empty string.
 * With the default mapping this equals pi 1.6.0 (`read`/`write`/`edit` with `path`). Never throws.
 */
export function extractFileOpsFromMessage(
  message: AgentMessage,
  fileOps: FileOperations,
  mapping: FileToolMapping = DEFAULT_FILE_TOOL_MAPPING,
): void {
  if (message.role === "toolResult") {
    const calls = (message as NestedCallsCarrier).nestedCalls?.calls;
    if (Array.isArray(calls))
      for (const call of calls) recordCall(call?.name, call?.arguments, fileOps, mapping);
    return;
  }
  if (message.role !== "assistant" || !Array.isArray(message.content)) return;
  for (const block of message.content as unknown[]) {
    if (block === null || typeof block !== "object") continue;
    const call = block as { type?: unknown; name?: unknown; arguments?: unknown };
    if (call.type === "toolCall") recordCall(call.name, call.arguments, fileOps, mapping);
  }
}

/** The file lists stored in a summary's `details`. */
export interface FileLists {
  /** Files only read, sorted. */
  readFiles: string[];
  /** Files written or edited (whether or not also read), sorted. */
  modifiedFiles: string[];
}

/**
 * Final file lists: `modifiedFiles = sorted(edited ∪ written)`, `readFiles = sorted(read \ modified)`
 * (a file read and then modified appears only as modified). Sorting is JavaScript's default
 * (UTF-16 code units), as in pi. Pure.
 */
export function computeFileLists(fileOps: FileOperations): FileLists {
  const modified = new Set<string>([...fileOps.edited, ...fileOps.written]);
  const readFiles = [...fileOps.read].filter((path) => !modified.has(path)).sort();
  return { readFiles, modifiedFiles: [...modified].sort() };
}

/**
 * Renders file lists as the tags appended to a summary:
 * `"\n\n<read-files>\n…\n</read-files>\n\n<modified-files>\n…\n</modified-files>"`, omitting an empty
 * list, and `""` when both are empty. Pure.
 */
export function formatFileOperations(readFiles: readonly string[], modifiedFiles: readonly string[]): string {
  const sections: string[] = [];
  if (readFiles.length > 0) sections.push(`<read-files>\n${readFiles.join("\n")}\n</read-files>`);
  if (modifiedFiles.length > 0)
    sections.push(`<modified-files>\n${modifiedFiles.join("\n")}\n</modified-files>`);
  return sections.length === 0 ? "" : `\n\n${sections.join("\n\n")}`;
}

/**
 * Adds previously recorded file lists (a summary's `details`) to `fileOps`: `readFiles` as read,
 * `modifiedFiles` as edited. Ignores anything that is not an object with string arrays. Mutates `fileOps`.
 */
export function addFileListsFromDetails(details: unknown, fileOps: FileOperations): void {
  if (details === null || typeof details !== "object") return;
  const { readFiles, modifiedFiles } = details as { readFiles?: unknown; modifiedFiles?: unknown };
  if (Array.isArray(readFiles)) for (const path of readFiles) fileOps.read.add(path as string);
  if (Array.isArray(modifiedFiles)) for (const path of modifiedFiles) fileOps.edited.add(path as string);
}
