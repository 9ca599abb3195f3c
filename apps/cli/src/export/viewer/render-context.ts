/// <reference lib="dom" />
import type { ExportData, ExportEntry, ExportMessage } from "../export-data";
import { add, el, formatCount, shortId } from "./dom";
import type { LeafProjection, ProjectedItem } from "./project-leaf";
import { type CardHooks, idButton, renderBoundary, renderFileLists } from "./render-boundary";
import { renderMessage, tokenCells } from "./render-message";

/** How many items are rendered at once; more follow as the reader scrolls. */
const CHUNK = 120;

/** Context totals of a projection: per item the running total after it, and the overall figures. */
export interface ContextTotals {
  /** Running estimate after each item (same order as `projection.items`). */
  after: number[];
  total: number;
  messages: number;
  maxTokens: number;
  /** Estimated tokens per role (compaction and branch summaries included). */
  byRole: Map<string, number>;
}

/** Sums the estimated tokens of a projection, item by item. Pure. */
export function contextTotals(projection: LeafProjection): ContextTotals {
  const after: number[] = [];
  const byRole = new Map<string, number>();
  let total = 0;
  let messages = 0;
  let maxTokens = 1;
  for (const item of projection.items) {
    for (const message of item.messages) {
      total += message.tokens;
      messages++;
      maxTokens = Math.max(maxTokens, message.tokens);
      byRole.set(message.role, (byRole.get(message.role) ?? 0) + message.tokens);
    }
    after.push(total);
  }
  return { after, total, messages, maxTokens, byRole };
}

function renderEdited(
  data: ExportData,
  item: ProjectedItem,
  entry: ExportEntry,
  figures: { running: number; maxTokens: number },
  hooks: CardHooks,
): HTMLElement {
  const edit = data.entries[item.edit]?.edit;
  const card = el("section", "edited");
  const head = add(
    el("header", "msg-head"),
    el("span", "role", edit?.hides ? "✎ Hidden by a context edit" : "✎ Edited"),
  );
  add(head, idButton(data, item.entry, hooks), el("span", "meta", "edit"), idButton(data, item.edit, hooks));
  add(head, tokenCells(edit?.tokens ?? 0, figures));
  add(card, head);
  const compare = el("div", "compare");
  const seen = add(el("div", "side seen"), el("h5", "", "What the model sees"));
  if (item.messages.length === 0) add(seen, el("p", "empty", "nothing: the entry is hidden from the model"));
  for (const message of item.messages) add(seen, renderMessage(message, { maxTokens: figures.maxTokens }));
  const raw = add(el("div", "side raw"), el("h5", "", "The entry as written"));
  for (const message of entry.messages) add(raw, renderMessage(message, { maxTokens: figures.maxTokens }));
  add(compare, seen, raw);
  return add(card, compare);
}

function renderBranchSummary(
  data: ExportData,
  item: ProjectedItem,
  entry: ExportEntry,
  figures: { running: number; maxTokens: number },
  hooks: CardHooks,
): HTMLElement {
  const summary = entry.branchSummary;
  const card = el("section", "branch-summary");
  const head = add(
    el("header", "msg-head"),
    el("span", "role", "↩ Branch summary"),
    idButton(data, item.entry, hooks),
  );
  add(head, el("span", "meta", `of the branch left at ${shortId(summary?.fromId ?? "")}`));
  add(head, tokenCells(entry.tokens, figures));
  add(card, head, el("pre", "text summary", summary?.summary ?? ""));
  add(card, renderFileLists(summary?.readFiles ?? [], summary?.modifiedFiles ?? []));
  return card;
}

function renderItem(
  data: ExportData,
  projection: LeafProjection,
  item: ProjectedItem,
  figures: { running: number; maxTokens: number },
  hooks: CardHooks,
): HTMLElement {
  const entry = data.entries[item.entry] as ExportEntry;
  let node: HTMLElement;
  if (item.entry === projection.compaction) node = renderBoundary(data, projection, figures, hooks);
  else if (item.edit >= 0) node = renderEdited(data, item, entry, figures, hooks);
  else if (entry.type === "branch_summary" && item.messages.length > 0)
    node = renderBranchSummary(data, item, entry, figures, hooks);
  else if (item.messages.length === 0) {
    node = el("div", `meta-line kind-${entry.type.replace(/[^a-z_]/g, "")}`);
    const what =
      entry.type === "compaction" ? "older compaction (superseded by the boundary above)" : entry.kind;
    add(
      node,
      idButton(data, item.entry, hooks),
      el("span", "meta-kind", what),
      el("span", "", entry.detail ?? entry.preview),
    );
  } else {
    node = el("div", "entry");
    let running = figures.running - item.messages.reduce((sum, message) => sum + message.tokens, 0);
    item.messages.forEach((message: ExportMessage) => {
      running += message.tokens;
      const card = renderMessage(message, { running, maxTokens: figures.maxTokens }, shortId(entry.id));
      add(node, card);
    });
  }
  node.dataset.entry = entry.id;
  if (entry.label) node.prepend(add(el("div", "label-line"), "label ", el("span", "chip", entry.label)));
  return node;
}

/**
 * Renders what the model sees at a leaf into `root`: a summary line with the context total and a bar
 * per role, then one card per context item (the compaction boundary, edited entries side by side
 * with the raw entry, branch summaries, messages with token bars and running totals, metadata as thin
 * lines). Items are rendered in chunks as the reader scrolls, so a long context opens at once.
 */
export function renderContextView(
  root: HTMLElement,
  data: ExportData,
  projection: LeafProjection,
  hooks: CardHooks,
): void {
  root.replaceChildren();
  const totals = contextTotals(projection);
  const leaf = data.entries[projection.leaf];
  const head = el("div", "context-head");
  const title = add(el("h2"), "What the model sees at ");
  if (leaf) add(title, idButton(data, projection.leaf, hooks));
  else add(title, "an empty session");
  if (projection.leaf === data.activeLeaf) add(title, el("span", "badge active", "exported leaf"));
  if (leaf?.label) add(title, el("span", "chip", leaf.label));
  add(head, title);
  const facts = [
    `${formatCount(totals.messages)} messages`,
    `~${formatCount(totals.total)} tokens (estimate)`,
    `path of ${formatCount(projection.path.length)} entries`,
  ];
  if (projection.compaction >= 0)
    facts.push(`${formatCount(projection.replaced.length)} replaced by a compaction`);
  if (projection.leaf === data.activeLeaf && data.activeContextTokens !== null) {
    facts.push(`${formatCount(data.activeContextTokens)} tokens usage-aware (as arbor inspect)`);
  }
  add(head, el("p", "facts", facts.join(" · ")));
  const bar = el("div", "rolebar");
  for (const [role, tokens] of totals.byRole) {
    const part = el("i", `role-${role.replace(/[^A-Za-z]/g, "")}`);
    part.style.width = `${totals.total > 0 ? (tokens / totals.total) * 100 : 0}%`;
    part.title = `${role}: ~${formatCount(tokens)} tokens`;
    add(bar, part);
  }
  add(head, bar);
  const list = el("div", "context-list");
  add(root, head, list);
  let next = 0;
  const sentinel = el("div", "sentinel", "Loading more…");
  const renderMore = () => {
    const end = Math.min(projection.items.length, next + CHUNK);
    const fragment = document.createDocumentFragment();
    for (; next < end; next++) {
      const item = projection.items[next] as ProjectedItem;
      const figures = { running: totals.after[next] as number, maxTokens: totals.maxTokens };
      fragment.appendChild(renderItem(data, projection, item, figures, hooks));
    }
    list.appendChild(fragment);
    if (next >= projection.items.length) sentinel.remove();
  };
  renderMore();
  if (next < projection.items.length) {
    add(root, sentinel);
    const observer = new IntersectionObserver((seen) => {
      if (!seen.some((entry) => entry.isIntersecting)) return;
      renderMore();
      observer.unobserve(sentinel);
      // Observing again reports the sentinel at once when it is still in view after this chunk.
      if (next < projection.items.length) observer.observe(sentinel);
    });
    observer.observe(sentinel);
  }
  if (projection.items.length === 0) add(list, el("p", "empty", "Nothing: the path is empty."));
}
