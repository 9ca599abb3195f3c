/// <reference lib="dom" />
import type { ExportData } from "../export-data";
import { add, el, formatCount, shortId } from "./dom";
import { type LeafProjection, projectLeaf } from "./project-leaf";
import { renderContextView } from "./render-context";
import { createTreeView, type TreeView, type TreeViewState } from "./render-tree";
import { buildTreeShape, type TreeShape } from "./tree-rows";

/** Timings the page records (milliseconds since navigation start), read by the tests. */
export interface ViewerTimings {
  /** The viewer script started (the whole document has been read by then). */
  started: number;
  parsed: number;
  contextShown: number;
  treeShown: number;
}

declare global {
  interface Window {
    arborViewer?: { timings: Partial<ViewerTimings>; select(index: number): void };
  }
}

function countTypes(data: ExportData): Map<string, number> {
  const counts = new Map<string, number>();
  for (const entry of data.entries) counts.set(entry.type, (counts.get(entry.type) ?? 0) + 1);
  return counts;
}

function renderHeader(root: HTMLElement, data: ExportData, leaves: number): void {
  const session = data.session;
  const title = add(
    el("h1"),
    el("span", "logo", "arbor"),
    " ",
    session.name ?? `Session ${shortId(session.id)}`,
  );
  const counts = countTypes(data);
  const facts = [
    session.file,
    `${formatCount(session.entryCount)} entries`,
    `${formatCount(leaves)} leaves`,
    `${formatCount(counts.get("compaction") ?? 0)} compactions`,
    `${formatCount(counts.get("branch_summary") ?? 0)} branch summaries`,
    `${formatCount(counts.get("context_edit") ?? 0)} context edits`,
  ];
  if (session.model) facts.push(session.model);
  if (session.thinkingLevel) facts.push(`thinking ${session.thinkingLevel}`);
  const line = el("p", "facts", facts.join(" · "));
  const more = el(
    "p",
    "facts dim",
    `id ${session.id}${session.cwd ? ` · ${session.cwd}` : ""} · exported ${session.exportedAt} by arbor ${session.arborVersion}`,
  );
  add(root, title, line, more);
}

function markPath(count: number, list: readonly number[]): Uint8Array {
  const marks = new Uint8Array(count);
  for (const index of list) marks[index] = 1;
  return marks;
}

/**
 * Starts the viewer: reads the embedded data (`#arbor-data`), shows the exported leaf's context
 * first, then builds the tree. Everything from the session is inserted as text.
 */
export function startViewer(): void {
  const timings: Partial<ViewerTimings> = { started: performance.now() };
  const source = document.getElementById("arbor-data");
  const data = JSON.parse(source?.textContent ?? "null") as ExportData;
  const chunks = document.querySelectorAll("script.arbor-entries");
  for (let index = 0; index < chunks.length; index++) {
    const entries = JSON.parse(chunks[index]?.textContent ?? "[]") as ExportData["entries"];
    for (const entry of entries) data.entries.push(entry);
  }
  timings.parsed = performance.now();
  const count = data.entries.length;
  const header = document.getElementById("header") as HTMLElement;
  const contextRoot = document.getElementById("context") as HTMLElement;
  const treeScroller = document.getElementById("tree") as HTMLElement;
  const controls = document.getElementById("tree-controls") as HTMLElement;
  let projection: LeafProjection = projectLeaf(data.entries, data.activeLeaf);
  let tree: TreeView | undefined;
  const hooks = { reveal: (index: number) => tree?.reveal(index) };
  renderContextView(contextRoot, data, projection, hooks);
  timings.contextShown = performance.now();
  const api = { timings, select: (index: number) => select(index) };
  window.arborViewer = api;
  let maxTokens = 1;
  for (const entry of data.entries) maxTokens = Math.max(maxTokens, entry.tokens);
  const state: TreeViewState = {
    onPath: markPath(count, projection.path),
    replaced: markPath(count, projection.replaced),
    activePath: markPath(count, projection.path),
    selected: data.activeLeaf,
    maxTokens,
    onSelect: (index) => select(index),
  };
  const picker = el("select", "leaf-picker") as HTMLSelectElement;
  function select(index: number): void {
    projection = projectLeaf(data.entries, index);
    state.onPath = markPath(count, projection.path);
    state.replaced = markPath(count, projection.replaced);
    state.selected = index;
    renderContextView(contextRoot, data, projection, hooks);
    contextRoot.scrollTop = 0;
    picker.value = String(index);
    tree?.refresh();
  }
  // The tree comes after the context has been painted.
  setTimeout(() => {
    const shape: TreeShape = buildTreeShape(data.entries);
    renderHeader(header, data, shape.leaves.length);
    for (const leaf of shape.leaves.slice(-2000).reverse()) {
      const entry = data.entries[leaf];
      if (!entry) continue;
      const option = el(
        "option",
        "",
        `${shortId(entry.id)} ${entry.label ? `[${entry.label}] ` : ""}${entry.kind}: ${entry.preview.slice(0, 60)}`,
      ) as HTMLOptionElement;
      option.value = String(leaf);
      picker.appendChild(option);
    }
    if (data.activeLeaf >= 0 && !shape.leaves.includes(data.activeLeaf)) {
      const option = el(
        "option",
        "",
        `${shortId(data.entries[data.activeLeaf]?.id ?? "")} (exported leaf)`,
      ) as HTMLOptionElement;
      option.value = String(data.activeLeaf);
      picker.prepend(option);
    }
    picker.value = String(data.activeLeaf);
    picker.addEventListener("change", () => select(Number(picker.value)));
    const back = el("button", "", "Exported leaf") as HTMLButtonElement;
    back.type = "button";
    back.addEventListener("click", () => {
      select(data.activeLeaf);
      tree?.reveal(data.activeLeaf);
    });
    const foldOthers = el("button", "", "Fold other branches") as HTMLButtonElement;
    foldOthers.type = "button";
    foldOthers.addEventListener("click", () => {
      if (!tree) return;
      tree.folded.clear();
      for (let index = 0; index < count; index++) {
        const parent = data.entries[index]?.parent ?? -1;
        const siblings = parent >= 0 ? (shape.children[parent]?.length ?? 0) : shape.roots.length;
        if (siblings > 1 && !state.onPath[index]) tree.folded.add(index);
      }
      tree.relayout();
      tree.reveal(state.selected);
    });
    const unfold = el("button", "", "Unfold all") as HTMLButtonElement;
    unfold.type = "button";
    unfold.addEventListener("click", () => {
      tree?.folded.clear();
      tree?.relayout();
    });
    add(controls, el("label", "", "Leaf "), picker, back, foldOthers, unfold);
    tree = createTreeView(treeScroller, data, shape, state);
    if (data.activeLeaf >= 0) tree.reveal(data.activeLeaf);
    timings.treeShown = performance.now();
    document.body.dataset.state = "ready";
  }, 0);
}
