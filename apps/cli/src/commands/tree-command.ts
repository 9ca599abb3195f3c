import { resolveArborHome } from "@arbor/runtime/settings";
import type { CliIo } from "../cli-io";
import { formatInteger } from "../format/format-number";
import { LineBatch } from "../process/line-batch";
import { waitForDrain } from "../process/wait-for-drain";
import { refuseDamagedSession } from "../sessions/open-session-file";
import { openSessionLocation } from "../sessions/open-session-location";
import { EntryLineDescriber } from "../tree/describe-entry-line";
import { sessionTreeLinkRows, sessionTreeShapeRows } from "../tree/session-tree-rows";
import type { TreeInput } from "../usage/tree-usage";

/** Sessions of at least this many entries have their message rows made from the lines' bytes. */
const LINE_ROWS_FROM = 10_000;

/**
 * `arbor tree <session.jsonl>`: the whole tree as text. Read-only. Opens lazily, arranges the tree
 * from the light records (`getTreeLinks`, else `getTreeShape` for a session with repeated ids or
 * parent loops), then reads every entry once, one at a time, as its row is
 * made, none kept, refusing the file when a problem is found. In a session of 10,000 entries or more, a
 * user, assistant or tool result message of the usual shape is described from its line's bytes (`getEntryLine`, `EntryLineDescriber`): the
 * line is checked to be well-formed JSON and only the fields the row shows are decoded, so the rest of
 * that entry is not checked against its type's structure (`arbor check` is the full check). Every other
 * entry, and any line that is not well-formed JSON, is read and checked in full (`getEntry`), which
 * reports a damaged line as before. Returns the exit code.
 */
export async function runTreeCommand(command: TreeInput, io: CliIo): Promise<number> {
  const { store } = await openSessionLocation(command.file, {
    readOnly: true,
    arborHome: resolveArborHome(io.env ?? process.env),
    validate: "lazy",
  });
  try {
    const name = store.getSessionName();
    const header = [
      `Session ${store.sessionId}`,
      name ? `"${name}"` : undefined,
      `${formatInteger(store.getEntryCount())} entries`,
      `leaf ${store.leafId ?? "(none)"}`,
    ].filter(Boolean);
    const width = (io.stdout as { columns?: number }).columns || 120;
    if (store.getEntryCount() === 0) {
      io.stdout.write(`${header.join(" · ")}\n\n(no entries: the file holds only its header)\n`);
      return 0;
    }
    // Rows are written in batches of 1,024 as they are made: a million-entry tree is never held as
    // one text. A problem found on the way (a damaged line) makes the command fail once the tree is
    // read; a tree of fewer rows than a batch has then written nothing, a larger one its first batches.
    const batch = new LineBatch(io.stdout);
    batch.add(`${header.join(" · ")}\n`);
    // In a large session most rows are described from their line's bytes (well-formedness checked,
    // only the shown fields decoded); the rest, and any line that is not well-formed JSON, are read and
    // checked in full. A smaller session is read in full: there the describer's code would not be
    // warm (compiled) before the end, and parsing costs less than that.
    const lines = store.getEntryCount() >= LINE_ROWS_FROM ? new EntryLineDescriber() : undefined;
    // The forest as links between entry numbers (no object per entry) when the session allows it
    // (unique ids, no parent loop); else as node objects, which arrange those cases.
    const links = store.getTreeLinks();
    const options = { leafId: store.leafId, width };
    const rows = links
      ? sessionTreeLinkRows(
          links,
          options,
          (entry) => store.getEntry(links.id(entry)),
          lines &&
            ((entry, room, id) => {
              const line = links.line(entry);
              return line === undefined ? undefined : lines.describe(line, id, room);
            }),
        )
      : sessionTreeShapeRows(
          store.getTreeShape(),
          options,
          (id) => store.getEntry(id),
          lines &&
            ((id, room) => {
              const line = store.getEntryLine(id);
              return line === undefined ? undefined : lines.describe(line, id, room);
            }),
        );
    for (const row of rows) {
      // Once a problem is found the command will fail: read on (to name the first damaged line in
      // the file), but hold and write no more rows.
      if (store.issues.length > 0) continue;
      batch.add(row.text);
      if (batch.count < 1024) continue;
      // A pipe slower than arbor (`arbor tree big.jsonl | less`) fills up: wait for it to take what
      // was written before making more rows, so the output is never held in memory whole.
      await waitForDrain(io.stdout, batch.flush());
    }
    refuseDamagedSession(store);
    batch.flush();
    return 0;
  } finally {
    store.close();
  }
}
