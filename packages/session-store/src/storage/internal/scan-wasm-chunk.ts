import { ENTRY_LINE, ENTRY_LINE_FLAGS, ENTRY_LINE_PARENT_NULL } from "./entry-head-slots";
import { ascii, cachedAscii } from "./extract-entry-record";
import type { LineScanner } from "./line-scanner";
import type { RecordTable } from "./record-table";
import type { WasmEntryScanner } from "./wasm-entry-scanner";

const { matched: MATCHED, samePrevious: SAME_PREVIOUS } = ENTRY_LINE_FLAGS;
const W = ENTRY_LINE;

/**
 * `LineScanner.scanChunk` of a chunk held in `wasm`'s memory (`view`, whose byte 0 is at file offset
 * `fileOffset`): the program records every line; a line it matched is pushed into `table` from its
 * record (no string for its id in a table of columns, the previous line's id for a chained parent),
 * any other line goes to `scanner.classify` (told when the fast-path checks already failed), which
 * gives the same records and issues as the JavaScript scan. Returns the bytes consumed: up to and
 * including the last newline.
 */
export function scanWasmChunk(
  wasm: WasmEntryScanner,
  scanner: LineScanner,
  table: RecordTable,
  view: Buffer,
  fileOffset: number,
): number {
  const words = wasm.words;
  const base = wasm.base;
  const columnar = table.isColumnar;
  const counters = scanner.counters;
  let from = 0;
  for (;;) {
    const count = wasm.scanLines(from, view.length);
    /** The record (of this call) of the line pushed last, when the table's last record is its. */
    let pushed = -1;
    /** Its id, for a table of objects. */
    let pushedId: string | undefined;
    for (let r = 0, at = wasm.recordsAt; r < count; r++, at += W.words) {
      const start = (words[at + W.start] as number) - base;
      const newline = (words[at + W.newline] as number) - base;
      const flags = words[at + W.flags] as number;
      if ((flags & MATCHED) === 0 || !scanner.takesScannedRecords()) {
        // A line that is not blank and not pushed here ends the chain of pushed lines.
        if ((words[at + W.end] as number) - base > start) pushed = -1;
        scanner.previous.buf = undefined;
        scanner.classify(view, start, newline, fileOffset + start, (flags & MATCHED) === 0);
        continue;
      }
      const line = ++scanner.lineNo;
      counters.linesScanned++;
      counters.fastPathLines++;
      const typeEnd = (words[at + W.typeEnd] as number) - base;
      const type = cachedAscii(view, (words[at + W.typeStart] as number) - base, typeEnd);
      const idStart = typeEnd + 8;
      const idEnd = (words[at + W.idEnd] as number) - base;
      const roleStart = words[at + W.roleStart] as number;
      const role =
        roleStart < 0
          ? undefined
          : cachedAscii(view, roleStart - base, (words[at + W.roleEnd] as number) - base);
      const chained = (flags & SAME_PREVIOUS) !== 0 && words[at + W.previousLine] === pushed;
      const parentStart = words[at + W.parentStart] as number;
      const parentId = chained
        ? undefined
        : parentStart === ENTRY_LINE_PARENT_NULL
          ? null
          : ascii(view, parentStart - base, (words[at + W.parentEnd] as number) - base);
      const hash = (words[at + W.hash] as number) >>> 0;
      if (columnar) {
        table.pushScanned(
          view,
          idStart,
          idEnd,
          hash,
          parentId,
          type,
          role,
          fileOffset + start,
          newline - start,
          line,
        );
      } else {
        const id = ascii(view, idStart, idEnd);
        const record = {
          id,
          parentId: chained ? (pushedId as string) : (parentId as string | null),
          type,
          role,
        };
        table.push(record, fileOffset + start, newline - start, line, hash);
        pushedId = id;
      }
      pushed = r;
    }
    from = wasm.resumeAt();
    if (count < wasm.recordsPerCall) return from;
  }
}
