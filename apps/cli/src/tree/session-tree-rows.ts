import type { SessionEntry, SessionTreeNode, SessionTreeShapeNode } from "@arbor/session-store";
import { sanitizeTerminalText } from "../format/sanitize-terminal-text";
import { describeEntry } from "./describe-entry";

/** What {@link sessionTreeRows} shows besides the nodes. */
export interface SessionTreeRowOptions {
  leafId: string | null;
  /** Line width (previews are clipped to fit). */
  width: number;
}

/** One rendered line of a session tree: the entry's id and its text (tree drawing included). */
export interface SessionTreeRow {
  id: string;
  text: string;
}

/** What the rows need of a node: its children and label (the entry comes from `entryOf`). */
interface RowNode<N> {
  children: readonly N[];
  label?: string;
}

interface Frame<N> {
  node: N;
  /** Prefix for this node's line. */
  lead: string;
  /** Prefix for the lines of its descendants. */
  rest: string;
}

/** Text from a session file made inert and kept on one line. */
function inline(text: string): string {
  return sanitizeTerminalText(text).replace(/[\t\n]/g, " ");
}

/**
 * Renders a session forest as rows, one per entry, in display order (depth first, oldest child
 * first): `id kind preview`, with `[label]` markers, `◆` for compactions, `↩` for branch summaries
 * and `← leaf` on the current leaf. A chain of single children stays at one indentation; a fork
 * draws `├─`/`└─` branches. Everything taken from the entries (ids, labels, names, previews) is made
 * inert (see `sanitizeTerminalText`) and kept on one line. Iterative, so sessions of any depth render
 * without recursion. Pure.
 */
export function sessionTreeRows(
  roots: readonly SessionTreeNode[],
  options: SessionTreeRowOptions,
): SessionTreeRow[] {
  return [...treeRows(roots, options, (node) => node.entry)];
}

/**
 * The rows of {@link sessionTreeRows} for a tree shape (`SessionStore.getTreeShape()`), made one at a
 * time as the caller iterates, each entry read with `read` when its row is made: neither the entries
 * nor the rows need to be held. A node whose entry `read` cannot give (`undefined`: a line found
 * corrupt when read) gets no row; its children still do.
 */
export function* sessionTreeShapeRows(
  roots: readonly SessionTreeShapeNode[],
  options: SessionTreeRowOptions,
  read: (id: string) => SessionEntry | undefined,
): Generator<SessionTreeRow> {
  yield* treeRows(roots, options, (node) => read(node.id));
}

/** Makes the rows in display order, one at a time. */
function* treeRows<N extends RowNode<N>>(
  roots: readonly N[],
  options: SessionTreeRowOptions,
  entryOf: (node: N) => SessionEntry | undefined,
): Generator<SessionTreeRow> {
  const stack: Frame<N>[] = [];
  const pushChildren = (children: readonly N[], rest: string) => {
    if (children.length === 1) {
      stack.push({ node: children[0] as N, lead: rest, rest });
      return;
    }
    for (let index = children.length - 1; index >= 0; index--) {
      const last = index === children.length - 1;
      stack.push({
        node: children[index] as N,
        lead: `${rest}${last ? "└─ " : "├─ "}`,
        rest: `${rest}${last ? "   " : "│  "}`,
      });
    }
  };
  pushChildren(roots, "");
  for (let frame = stack.pop(); frame; frame = stack.pop()) {
    const entry = entryOf(frame.node);
    if (entry === undefined) {
      pushChildren(frame.node.children, frame.rest);
      continue;
    }
    const markers = [
      frame.node.label ? `[${inline(frame.node.label)}]` : "",
      entry.id === options.leafId ? "← leaf" : "",
    ].filter(Boolean);
    const suffix = markers.length > 0 ? `  ${markers.join(" ")}` : "";
    const room = Math.max(20, options.width - frame.lead.length - 24 - suffix.length);
    const { kind, text } = describeEntry(entry, room);
    yield {
      id: entry.id,
      text: `${frame.lead}${inline(entry.id).padEnd(8)} ${inline(kind).padEnd(12)} ${inline(text)}${suffix}`.trimEnd(),
    };
    pushChildren(frame.node.children, frame.rest);
  }
}
