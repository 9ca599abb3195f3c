import { estimateProjectedContextTokens } from "@arbor/compaction";
import {
  projectContextEntry,
  type SessionEntry,
  type SessionStore,
  sessionEntryToContextMessages,
} from "@arbor/session-store";
import { describeModel } from "../format/describe-model";
import { describeEntry } from "../tree/describe-entry";
import type { ExportData, ExportEntry, ExportMessage } from "./export-data";
import { type ClipOptions, clipText, toExportMessage } from "./to-export-message";

/** What {@link buildExportData} needs besides the session. */
export interface BuildExportDataOptions extends ClipOptions {
  /** The leaf shown first; default the session's leaf. Must be an entry of the session. */
  leafId?: string | null;
  /** The session file's name, shown in the page. */
  fileName: string;
  /** Time of the export (ISO string). */
  exportedAt: string;
  arborVersion: string;
}

const KIND_OF_TYPE: Record<string, string> = {
  model_change: "model",
  thinking_level_change: "thinking",
  compaction: "compaction",
  branch_summary: "branch summary",
  label: "label",
  session_info: "name",
  custom: "custom",
  custom_message: "custom message",
  context_edit: "context edit",
  usage: "usage",
};

function stringList(value: unknown): string[] {
  return Array.isArray(value) ? value.filter((item): item is string => typeof item === "string") : [];
}

function fileLists(details: unknown): { readFiles: string[]; modifiedFiles: string[] } {
  const record = (details && typeof details === "object" ? details : {}) as Record<string, unknown>;
  return { readFiles: stringList(record.readFiles), modifiedFiles: stringList(record.modifiedFiles) };
}

function sumTokens(messages: readonly ExportMessage[]): number {
  let total = 0;
  for (const message of messages) total += message.tokens;
  return total;
}

function exportEntry(
  entry: SessionEntry,
  indexOf: ReadonlyMap<string, number>,
  view: SessionStore,
  options: BuildExportDataOptions,
): ExportEntry {
  const messages = sessionEntryToContextMessages(entry).map((message) => toExportMessage(message, options));
  const role = entry.type === "message" ? (entry.message as { role?: unknown } | null)?.role : undefined;
  const parent = entry.parentId === null ? -1 : (indexOf.get(entry.parentId) ?? -1);
  const description = describeEntry(entry, 160);
  const result: ExportEntry = {
    id: entry.id,
    parent,
    type: entry.type,
    kind: typeof role === "string" ? role : (KIND_OF_TYPE[entry.type] ?? entry.type),
    time: typeof entry.timestamp === "string" ? entry.timestamp : "",
    preview: description.text,
    messages,
    tokens: sumTokens(messages),
  };
  const label = view.getLabel(entry.id);
  if (label !== undefined) result.label = label;
  if (role === "system") result.system = true;
  switch (entry.type) {
    case "compaction":
      result.compaction = {
        firstKept: indexOf.get(entry.firstKeptEntryId) ?? -1,
        firstKeptId: entry.firstKeptEntryId,
        tokensBefore: entry.tokensBefore,
        summary: clipText(entry.summary, options),
        ...fileLists(entry.details),
        fromHook: entry.fromHook === true,
      };
      break;
    case "branch_summary":
      result.branchSummary = {
        fromId: entry.fromId,
        summary: clipText(entry.summary, options),
        ...fileLists(entry.details),
      };
      break;
    case "context_edit": {
      const target = view.getEntry(entry.targetId);
      const edited =
        target === undefined
          ? []
          : projectContextEntry(target, entry).map((message) => toExportMessage(message, options));
      result.edit = {
        target: indexOf.get(entry.targetId) ?? -1,
        targetId: entry.targetId,
        hides: entry.replacement === null,
        messages: edited,
        tokens: sumTokens(edited),
      };
      break;
    }
    case "message":
      break;
    default:
      result.detail = description.text;
  }
  return result;
}

/** The export of a session without its entries (they are produced chunk by chunk). */
export type ExportHead = Omit<ExportData, "entries">;

/** Entries of a session ready to export, with their id → index map. */
interface EntryTable {
  entries: SessionEntry[];
  indexOf: Map<string, number>;
}

function headFacts(table: EntryTable): HeadFacts {
  return { indexOf: (id) => table.indexOf.get(id), entryCount: table.entries.length };
}

function entryTable(view: SessionStore): EntryTable {
  const entries = view.getEntries();
  const indexOf = new Map<string, number>();
  for (const [index, entry] of entries.entries()) indexOf.set(entry.id, index);
  return { entries, indexOf };
}

/** Where the head finds entries: by index in the exported entries (-1 without a table), and how many. */
interface HeadFacts {
  indexOf: (id: string) => number | undefined;
  entryCount: number;
}

function buildHead(view: SessionStore, table: HeadFacts, options: BuildExportDataOptions): ExportHead {
  const leafId = options.leafId === undefined ? view.leafId : options.leafId;
  const activeLeaf = leafId === null ? -1 : (table.indexOf(leafId) ?? Number.NaN);
  if (Number.isNaN(activeLeaf)) throw new Error(`buildExportData: no entry ${leafId}`);
  const projection = view.getProjection(leafId);
  const model = describeModel(projection.model) ?? null;
  return {
    format: 1,
    session: {
      id: view.sessionId,
      name: view.getSessionName() ?? null,
      file: options.fileName,
      cwd: typeof view.header.cwd === "string" ? view.header.cwd : null,
      entryCount: table.entryCount,
      model,
      thinkingLevel: projection.thinkingLevel ?? null,
      exportedAt: options.exportedAt,
      arborVersion: options.arborVersion,
    },
    activeLeaf,
    fileLeaf: view.leafId === null ? -1 : (table.indexOf(view.leafId) ?? -1),
    // The part of the path from the latest compaction is all the estimate depends on.
    activeContextTokens:
      leafId === null
        ? null
        : estimateProjectedContextTokens(projection, view.getBranch(leafId, { sinceLatestCompaction: true }))
            .tokens,
    clipChars: options.clipChars,
  };
}

/**
 * The export of a session in two parts, for large sessions: the head at once, and the entries in file
 * order as chunks of `chunkSize`, each built when it is asked for (so only one chunk of display-ready
 * entries is in memory at a time); `entryAt` builds one entry (for an index in file order, see `indexOf`). Same data
 * and contract as {@link buildExportData}. When every entry of the store was checked already (opened
 * with `validate: "full"`, as `arbor export` does) and ids are unique, the session's entries are not
 * held either: each is read from the store as its chunk is made. Otherwise they are read first, all
 * of them (a line found corrupt on the way would move the entries after it).
 */
export function buildExportStream(
  view: SessionStore,
  options: BuildExportDataOptions,
  chunkSize: number,
): {
  head: ExportHead;
  chunks: () => Generator<ExportEntry[]>;
  entryAt: (index: number) => ExportEntry;
  indexOf: ReadonlyMap<string, number>;
} {
  const ids = visibleEntryIds(view);
  if (ids !== undefined) return streamFromIds(view, ids, options, chunkSize);
  const table = entryTable(view);
  const head = buildHead(view, headFacts(table), options);
  function* chunks(): Generator<ExportEntry[]> {
    for (let start = 0; start < table.entries.length; start += chunkSize) {
      yield table.entries
        .slice(start, start + chunkSize)
        .map((entry) => exportEntry(entry, table.indexOf, view, options));
    }
  }
  const entryAt = (index: number) =>
    exportEntry(table.entries[index] as SessionEntry, table.indexOf, view, options);
  return { head, chunks, entryAt, indexOf: table.indexOf };
}

/**
 * The ids of the entries `getEntries()` gives, in its order, without reading any entry; `undefined`
 * unless every entry was checked already (a store opened with `validate: "full"`: no line can turn
 * out corrupt later and move the others) and the ids are unique (`getTreeLinks`). The entries of the
 * forest are those: a stray header line or a corrupt line has no links.
 */
function visibleEntryIds(view: SessionStore): string[] | undefined {
  if (view.validatedEntryCount < view.getEntryCount()) return undefined;
  const links = view.getTreeLinks();
  if (links === undefined) return undefined;
  const roots = new Set(links.roots);
  const ids: string[] = [];
  for (let entry = 0; entry < links.parent.length; entry++) {
    if ((links.parent[entry] as number) >= 0 || roots.has(entry)) ids.push(links.id(entry));
  }
  return ids;
}

/** {@link buildExportStream} from the ids of the exported entries: each entry read when its chunk is made, none kept. */
function streamFromIds(
  view: SessionStore,
  ids: readonly string[],
  options: BuildExportDataOptions,
  chunkSize: number,
): ReturnType<typeof buildExportStream> {
  const indexOf = new Map<string, number>();
  for (let index = 0; index < ids.length; index++) indexOf.set(ids[index] as string, index);
  const head = buildHead(view, { indexOf: (id) => indexOf.get(id), entryCount: ids.length }, options);
  const entryAt = (index: number) =>
    exportEntry(view.getEntry(ids[index] as string) as SessionEntry, indexOf, view, options);
  function* chunks(): Generator<ExportEntry[]> {
    for (let start = 0; start < ids.length; start += chunkSize) {
      const chunk: ExportEntry[] = [];
      for (let index = start; index < Math.min(start + chunkSize, ids.length); index++)
        chunk.push(entryAt(index));
      yield chunk;
    }
  }
  return { head, chunks, entryAt, indexOf };
}

/**
 * Builds the data an HTML export embeds: every entry of the session in file order with its messages
 * in display form (the session store's own `sessionEntryToContextMessages`, and `projectContextEntry`
 * for what each context edit makes of its target), token estimates from `@arbor/compaction`, labels,
 * compaction and branch-summary details, and the active leaf's usage-aware context estimate. Reads the
 * view only; never modifies it. Texts are clipped per `options.clipChars`.
 *
 * @throws Error when `options.leafId` names no entry (callers check it first and report it).
 */
export function buildExportData(view: SessionStore, options: BuildExportDataOptions): ExportData {
  const table = entryTable(view);
  return {
    ...buildHead(view, headFacts(table), options),
    entries: table.entries.map((entry) => exportEntry(entry, table.indexOf, view, options)),
  };
}

/**
 * What a Markdown export needs, without the session's entries in memory: the head (whose
 * `activeLeaf` and `fileLeaf` are -1: there is no table of exported entries), the leaf, and the
 * path's entries from the root, each read and made when it is asked for and not kept. An entry's
 * indices (`parent`, a compaction's `firstKept`, an edit's `target`) are -1: the Markdown names
 * entries by id. Same texts as {@link buildExportData}'s entries.
 */
export function buildPathExportStream(
  view: SessionStore,
  options: BuildExportDataOptions,
): { head: ExportHead; leafId: string | null; pathLength: number; entries: () => Generator<ExportEntry> } {
  const head = buildHead(view, { indexOf: () => -1, entryCount: view.getEntryCount() }, options);
  const leafId = options.leafId === undefined ? view.leafId : options.leafId;
  const ids = leafId === null ? [] : view.getPathIds(leafId);
  const noIndices = new Map<string, number>();
  function* entries(): Generator<ExportEntry> {
    for (const id of ids) {
      const entry = view.getEntry(id);
      if (entry !== undefined) yield exportEntry(entry, noIndices, view, options);
    }
  }
  return { head, leafId, pathLength: ids.length, entries };
}
