import type { SessionTreeNode } from "@arbor/session-store";
import { type SessionTreeRowOptions, sessionTreeRows } from "./session-tree-rows";

/** What {@link formatSessionTree} shows besides the nodes. */
export type FormatTreeOptions = SessionTreeRowOptions;

/**
 * Renders a session forest as text, one entry per line (the rows of {@link sessionTreeRows}):
 * `id kind preview`, with `[label]` markers, `◆` for compactions, `↩` for branch summaries and
 * `← leaf` on the current leaf; at a fork the side branches are drawn behind `├─` one step in and the
 * line towards the leaf goes on flush below them. Pure.
 */
export function formatSessionTree(roots: readonly SessionTreeNode[], options: FormatTreeOptions): string {
  return sessionTreeRows(roots, options)
    .map((row) => row.text)
    .join("\n");
}
