import type { SessionTreeNode } from "@arbor/session-store";
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

interface Frame {
  node: SessionTreeNode;
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
  const rows: SessionTreeRow[] = [];
  const stack: Frame[] = [];
  const pushChildren = (children: readonly SessionTreeNode[], rest: string) => {
    if (children.length === 1) {
      stack.push({ node: children[0] as SessionTreeNode, lead: rest, rest });
      return;
    }
    for (let index = children.length - 1; index >= 0; index--) {
      const last = index === children.length - 1;
      stack.push({
        node: children[index] as SessionTreeNode,
        lead: `${rest}${last ? "└─ " : "├─ "}`,
        rest: `${rest}${last ? "   " : "│  "}`,
      });
    }
  };
  pushChildren(roots, "");
  for (let frame = stack.pop(); frame; frame = stack.pop()) {
    const { entry } = frame.node;
    const markers = [
      frame.node.label ? `[${inline(frame.node.label)}]` : "",
      entry.id === options.leafId ? "← leaf" : "",
    ].filter(Boolean);
    const suffix = markers.length > 0 ? `  ${markers.join(" ")}` : "";
    const room = Math.max(20, options.width - frame.lead.length - 24 - suffix.length);
    const { kind, text } = describeEntry(entry, room);
    rows.push({
      id: entry.id,
      text: `${frame.lead}${inline(entry.id).padEnd(8)} ${inline(kind).padEnd(12)} ${inline(text)}${suffix}`.trimEnd(),
    });
    pushChildren(frame.node.children, frame.rest);
  }
  return rows;
}
