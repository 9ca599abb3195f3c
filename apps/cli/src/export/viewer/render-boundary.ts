/// <reference lib="dom" />
import type { ExportData, ExportEntry } from "../export-data";
import { add, el, formatCount, shortId } from "./dom";
import type { LeafProjection } from "./project-leaf";
import { renderMessage, tokenCells } from "./render-message";

/** What a card needs to link back to the tree. */
export interface CardHooks {
  /** Shows the entry in the tree (scrolls to it and marks it). */
  reveal(index: number): void;
}

/** A link-like button showing an entry id that reveals the entry in the tree. */
export function idButton(data: ExportData, index: number, hooks: CardHooks): HTMLElement {
  const entry = data.entries[index];
  const button = el("button", "idlink", entry ? shortId(entry.id) : "?") as HTMLButtonElement;
  button.type = "button";
  button.title = "show in the tree";
  button.addEventListener("click", () => hooks.reveal(index));
  return button;
}

/** Read and modified file lists, side by side (nothing when both are empty). */
export function renderFileLists(
  readFiles: readonly string[],
  modifiedFiles: readonly string[],
): HTMLElement | null {
  if (readFiles.length === 0 && modifiedFiles.length === 0) return null;
  const box = el("div", "files");
  for (const [title, files] of [
    ["Read", readFiles],
    ["Modified", modifiedFiles],
  ] as const) {
    const column = add(el("div", "file-col"), el("h4", "", `${title} (${files.length})`));
    const list = el("ul");
    for (const file of files) add(list, el("li", "", file));
    if (files.length === 0) add(list, el("li", "empty", "none"));
    add(box, add(column, list));
  }
  return box;
}

function renderReplaced(data: ExportData, replaced: readonly number[]): HTMLElement {
  const details = el("details", "replaced");
  add(details, el("summary", "", `Show the ${formatCount(replaced.length)} replaced entries`));
  let filled = false;
  details.addEventListener("toggle", () => {
    if (filled || !(details as HTMLDetailsElement).open) return;
    filled = true;
    const limit = 400;
    const list = el("div", "replaced-list");
    let max = 1;
    for (const index of replaced) max = Math.max(max, data.entries[index]?.tokens ?? 0);
    for (const index of replaced.slice(0, limit)) {
      const entry = data.entries[index] as ExportEntry;
      for (const message of entry.messages)
        add(list, renderMessage(message, { maxTokens: max }, shortId(entry.id)));
      if (entry.messages.length === 0) add(list, el("div", "meta-line", `${entry.kind} · ${entry.preview}`));
    }
    if (replaced.length > limit) {
      const more = el(
        "p",
        "empty",
        `… and ${formatCount(replaced.length - limit)} more (select them in the tree)`,
      );
      add(list, more);
    }
    add(details, list);
  });
  return details;
}

/**
 * The card of the compaction that bounds a leaf's context: its summary (what the model sees instead
 * of the history), the range of the path it replaced (with the replaced entries on demand), the
 * tokens before, and the files it records as read and modified.
 */
export function renderBoundary(
  data: ExportData,
  projection: LeafProjection,
  figures: { running: number; maxTokens: number },
  hooks: CardHooks,
): HTMLElement {
  const entry = data.entries[projection.compaction] as ExportEntry;
  const compaction = entry.compaction;
  const card = el("section", "boundary");
  const head = add(el("header", "msg-head"), el("span", "role", "◆ Compaction boundary"));
  add(head, idButton(data, projection.compaction, hooks));
  if (compaction?.fromHook) add(head, el("span", "badge", "from an extension"));
  add(head, tokenCells(entry.tokens, figures));
  add(card, head);
  const replaced = projection.replaced;
  const range = el("p", "range");
  if (replaced.length > 0) {
    add(
      range,
      `Replaces ${formatCount(replaced.length)} entries of this path, `,
      idButton(data, replaced[0] as number, hooks),
      " … ",
      idButton(data, replaced[replaced.length - 1] as number, hooks),
      `, about ${formatCount(compaction?.tokensBefore ?? 0)} tokens before. Kept verbatim from `,
    );
    if (compaction && compaction.firstKept >= 0) add(range, idButton(data, compaction.firstKept, hooks));
    else add(range, el("code", "", compaction?.firstKeptId ?? "?"));
    add(range, ".");
  } else {
    add(
      range,
      `Replaces nothing on this path (about ${formatCount(compaction?.tokensBefore ?? 0)} tokens before).`,
    );
  }
  add(card, range);
  for (const message of entry.messages) {
    if (message.role === "compactionSummary") {
      add(card, el("pre", "text summary", compaction?.summary ?? ""));
    } else {
      add(card, renderMessage(message, { maxTokens: figures.maxTokens }, "checkpoint"));
    }
  }
  add(card, renderFileLists(compaction?.readFiles ?? [], compaction?.modifiedFiles ?? []));
  if (replaced.length > 0) add(card, renderReplaced(data, replaced));
  return card;
}
