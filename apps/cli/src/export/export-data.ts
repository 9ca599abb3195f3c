/**
 * The data an HTML export embeds (as JSON) and its viewer reads. Everything here comes from the
 * session file and is untrusted: the viewer only ever puts it into the page as text.
 *
 * Entries are listed in file order; `parent` is the index of the parent entry in `entries`, or -1 for
 * a root (or a parent id that is not in the file).
 */
export interface ExportData {
  /** Format of this object; bumped on an incompatible change. */
  format: 1;
  session: ExportSessionInfo;
  /** Index of the leaf shown first (the file's leaf, or `--leaf`), or -1 for an empty session. */
  activeLeaf: number;
  /** Index of the file's own leaf (the last entry), or -1. */
  fileLeaf: number;
  entries: ExportEntry[];
  /**
   * The usage-aware context estimate of the active leaf, as `arbor inspect` computes it
   * (`estimateProjectedContextTokens`), or null for an empty session.
   */
  activeContextTokens: number | null;
  /** Text longer than this many characters was clipped (each clip says how much was left out). */
  clipChars: number;
}

/** Facts about the session shown in the page header. */
export interface ExportSessionInfo {
  id: string;
  name: string | null;
  /** The session file's name (no folder). */
  file: string;
  cwd: string | null;
  entryCount: number;
  /** The model of the active leaf, as `provider/id`, or null. */
  model: string | null;
  thinkingLevel: string | null;
  exportedAt: string;
  arborVersion: string;
}

/** One entry of the session, ready to display. */
export interface ExportEntry {
  id: string;
  parent: number;
  /** The entry's `type` as written (`message`, `compaction`, unknown types included). */
  type: string;
  /** A short kind for display: the message role for messages, else a name for the entry type. */
  kind: string;
  time: string;
  /** The label the session gives this entry (the latest label entry for it), if any. */
  label?: string;
  /** One line describing the entry (tree rows). */
  preview: string;
  /** True for a `message` entry with role `system` (left out of a compaction's kept range). */
  system?: boolean;
  /** The messages the entry contributes to the context, before any context edit. */
  messages: ExportMessage[];
  /** Estimated tokens of `messages` (chars/4, pi's estimate). */
  tokens: number;
  compaction?: ExportCompaction;
  branchSummary?: ExportBranchSummary;
  edit?: ExportContextEdit;
  /** For metadata entries (model, thinking level, label, name, usage, custom): what they say. */
  detail?: string;
}

/** A compaction entry: the boundary it draws and what it summarized. */
export interface ExportCompaction {
  /** Index of the first entry kept verbatim, or -1 when it is not in the file. */
  firstKept: number;
  firstKeptId: string;
  tokensBefore: number;
  summary: string;
  readFiles: string[];
  modifiedFiles: string[];
  fromHook: boolean;
}

/** A branch summary entry: the branch it summarizes and the files it read/modified. */
export interface ExportBranchSummary {
  fromId: string;
  summary: string;
  readFiles: string[];
  modifiedFiles: string[];
}

/** A context edit: its target and what the model sees of the target while the edit applies. */
export interface ExportContextEdit {
  /** Index of the target entry, or -1 when it is not in the file. */
  target: number;
  targetId: string;
  /** True when the edit hides the target (replacement `null`). */
  hides: boolean;
  /** The target's messages as the edit makes them (empty when it hides). */
  messages: ExportMessage[];
  tokens: number;
}

/** A message in display form. */
export interface ExportMessage {
  role: string;
  blocks: ExportBlock[];
  /** Estimated tokens (chars/4). */
  tokens: number;
  /** For assistants: the context size the provider reported for this response (input + cache + output). */
  reportedContext?: number;
  /** For assistants: provider/model and stop reason. */
  model?: string;
  stopReason?: string;
  /** For tool results: the tool's name, the call id, and whether it failed. */
  toolName?: string;
  toolCallId?: string;
  isError?: boolean;
  /** For custom messages. */
  customType?: string;
}

/** A content block in display form. */
export type ExportBlock =
  | { type: "text"; text: string }
  | { type: "thinking"; text: string }
  | { type: "toolCall"; id: string; name: string; args: string }
  | { type: "image"; mimeType: string; bytes: number };
