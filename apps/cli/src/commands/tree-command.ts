import { resolveArborHome } from "@arbor/runtime";
import type { CliIo } from "../cli-io";
import { formatInteger } from "../format/format-number";
import { openSessionFile } from "../sessions/open-session-file";
import { formatSessionTree } from "../tree/format-session-tree";
import type { TreeInput } from "../usage/tree-usage";

/** `arbor tree <session.jsonl>`: the whole tree as text. Read-only. Returns the exit code. */
export async function runTreeCommand(command: TreeInput, io: CliIo): Promise<number> {
  const { store } = openSessionFile(command.file, {
    readOnly: true,
    arborHome: resolveArborHome(io.env ?? process.env),
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
    const tree =
      store.getEntryCount() === 0
        ? "(no entries: the file holds only its header)"
        : formatSessionTree(store.getTree(), { leafId: store.leafId, width });
    io.stdout.write(`${header.join(" · ")}\n\n${tree}\n`);
    return 0;
  } finally {
    store.close();
  }
}
