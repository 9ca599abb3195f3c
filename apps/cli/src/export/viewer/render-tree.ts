/// <reference lib="dom" />
import type { ExportData, ExportEntry } from "../export-data";
import { add, el, formatCount, shortId } from "./dom";
import { type TreeRow, type TreeShape, visibleTreeRows } from "./tree-rows";

/** Height of one tree row in pixels (the tree is virtual: only the rows in view exist). */
const ROW_HEIGHT = 26;
/** Indentation levels drawn; deeper rows show their depth as a number. */
const MAX_INDENT = 12;
/** Rows rendered above and below the visible ones. */
const OVERSCAN = 20;

/** What the tree shows besides the entries, and what it reports. */
export interface TreeViewState {
  /** Entries on the path of the selected leaf (1) or not (0). */
  onPath: Uint8Array;
  /** Entries of the selected path that its compaction replaced (1). */
  replaced: Uint8Array;
  /** Entries on the path of the exported leaf. */
  activePath: Uint8Array;
  selected: number;
  maxTokens: number;
  onSelect(index: number): void;
}

/** The tree view's controls. */
export interface TreeView {
  /** Draws the rows in view again (after a selection or a fold). */
  refresh(): void;
  /** Recomputes the rows (after folding) and draws them. */
  relayout(): void;
  /** Unfolds what hides `index`, scrolls to it and marks it. */
  reveal(index: number): void;
  folded: Set<number>;
}

function kindClass(entry: ExportEntry): string {
  return `k-${(entry.type === "message" ? entry.kind : entry.type).replace(/[^A-Za-z_]/g, "")}`;
}

function renderRow(
  data: ExportData,
  shape: TreeShape,
  row: TreeRow,
  state: TreeViewState,
  folded: Set<number>,
) {
  const entry = data.entries[row.entry] as ExportEntry;
  const node = el("div", `row ${kindClass(entry)}`);
  node.dataset.index = String(row.entry);
  node.dataset.id = entry.id;
  if (state.onPath[row.entry]) node.classList.add("on-path");
  if (state.replaced[row.entry]) node.classList.add("replaced");
  if (state.activePath[row.entry]) node.classList.add("active-path");
  if (row.entry === state.selected) node.classList.add("selected");
  const leaf = (shape.children[row.entry]?.length ?? 0) === 0;
  if (leaf) node.classList.add("leaf");
  // Deep trees (hundreds of nested forks) keep room for the text: indentation stops at MAX_INDENT
  // levels and the row shows its depth instead.
  node.style.paddingLeft = `${8 + Math.min(row.depth, MAX_INDENT) * 14}px`;
  const toggle = el("span", "toggle");
  if (row.branchStart && !leaf) {
    const isFolded = folded.has(row.entry);
    toggle.textContent = isFolded ? "▸" : "▾";
    toggle.title = isFolded ? "unfold this branch" : "fold this branch";
    toggle.dataset.fold = String(row.entry);
  } else if (row.branchStart) {
    toggle.textContent = "·";
  }
  if (row.depth > MAX_INDENT) add(node, el("span", "depth", `⋮${row.depth}`));
  add(node, toggle, el("span", "dot", leaf ? "●" : ""), el("span", "rid", shortId(entry.id)));
  add(node, el("span", "kind", entry.kind));
  if (entry.label) add(node, el("span", "chip", entry.label));
  const preview = el("span", "preview", entry.preview);
  add(node, preview);
  if (row.branchStart && folded.has(row.entry)) {
    add(node, el("span", "folded-count", `+${formatCount((shape.size[row.entry] ?? 1) - 1)}`));
  }
  const bar = el("span", "mini");
  const fill = el("i");
  fill.style.width = `${Math.min(100, (entry.tokens / state.maxTokens) * 100)}%`;
  add(bar, fill);
  add(node, bar);
  node.title = `${entry.id} · ${entry.kind} · ~${formatCount(entry.tokens)} tokens${leaf ? " · leaf" : ""}\n${entry.time}`;
  return node;
}

/**
 * A virtual tree in `scroller`: one row per visible entry (tree order, branches foldable), only the
 * rows in view are in the document, so 100k entries scroll as fast as 100. Clicking a row selects
 * that entry as the leaf whose context is shown; the fold toggles fold and unfold branches.
 */
export function createTreeView(
  scroller: HTMLElement,
  data: ExportData,
  shape: TreeShape,
  state: TreeViewState,
): TreeView {
  const folded = new Set<number>();
  let rows = visibleTreeRows(shape, folded);
  let rowOf = new Map<number, number>();
  const spacer = el("div", "tree-spacer");
  const layer = el("div", "tree-layer");
  add(scroller, add(spacer, layer));
  const indexRows = () => {
    rowOf = new Map(rows.map((row, position) => [row.entry, position]));
    spacer.style.height = `${rows.length * ROW_HEIGHT}px`;
  };
  let pending = false;
  const draw = () => {
    pending = false;
    const first = Math.max(0, Math.floor(scroller.scrollTop / ROW_HEIGHT) - OVERSCAN);
    const last = Math.min(
      rows.length,
      Math.ceil((scroller.scrollTop + scroller.clientHeight) / ROW_HEIGHT) + OVERSCAN,
    );
    layer.style.transform = `translateY(${first * ROW_HEIGHT}px)`;
    const fragment = document.createDocumentFragment();
    for (let position = first; position < last; position++) {
      fragment.appendChild(renderRow(data, shape, rows[position] as TreeRow, state, folded));
    }
    layer.replaceChildren(fragment);
  };
  const schedule = () => {
    if (pending) return;
    pending = true;
    requestAnimationFrame(draw);
  };
  scroller.addEventListener("scroll", schedule, { passive: true });
  layer.addEventListener("click", (event) => {
    const target = event.target as HTMLElement;
    const fold = target.closest<HTMLElement>("[data-fold]");
    if (fold) {
      const index = Number(fold.dataset.fold);
      if (folded.has(index)) folded.delete(index);
      else folded.add(index);
      view.relayout();
      return;
    }
    const row = target.closest<HTMLElement>(".row");
    if (row) state.onSelect(Number(row.dataset.index));
  });
  const view: TreeView = {
    folded,
    refresh: draw,
    relayout() {
      rows = visibleTreeRows(shape, folded);
      indexRows();
      draw();
    },
    reveal(index) {
      let changed = false;
      for (
        let at = data.entries[index]?.parent ?? -1, guard = 0;
        at >= 0 && guard < data.entries.length;
        guard++
      ) {
        if (folded.delete(at)) changed = true;
        at = data.entries[at]?.parent ?? -1;
      }
      if (changed) {
        rows = visibleTreeRows(shape, folded);
        indexRows();
      }
      const position = rowOf.get(index) ?? 0;
      const top = position * ROW_HEIGHT;
      if (top < scroller.scrollTop || top > scroller.scrollTop + scroller.clientHeight - ROW_HEIGHT) {
        scroller.scrollTop = Math.max(0, top - scroller.clientHeight / 3);
      }
      draw();
      const node = layer.querySelector<HTMLElement>(`.row[data-index="${index}"]`);
      node?.classList.add("flash");
    },
  };
  indexRows();
  draw();
  return view;
}
