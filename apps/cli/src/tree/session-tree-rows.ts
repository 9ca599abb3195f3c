import type {
  SessionEntry,
  SessionTreeLinks,
  SessionTreeNode,
  SessionTreeShapeNode,
} from "@arbor/session-store";
import { sanitizeTerminalText } from "../format/sanitize-terminal-text";
import { describeEntry, type EntryDescription } from "./describe-entry";

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

/** Characters {@link inline} changes: those `sanitizeTerminalText` looks for, tab and newline too. */
// biome-ignore lint/suspicious/noControlCharactersInRegex: this regex exists to find control characters
const NOT_INLINE = /[\u0000-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069]/;

/** Text from a session file made inert and kept on one line (plain text, the common case, as it is). */
function inline(text: string): string {
  return NOT_INLINE.test(text) ? sanitizeTerminalText(text).replace(/[\t\n]/g, " ") : text;
}

/**
 * Renders a session forest as rows, one per entry, in display order (depth first): `id kind
 * preview`, with `[label]` markers, `◆` for compactions, `↩` for branch summaries and `← leaf` on
 * the current leaf. A chain of single children stays at one column. At a fork the line goes on at the
 * same column with the child towards the leaf (else the newest child), after the other children:
 * those side branches come first, oldest first, each drawn behind `├─ ` one step in, with a `│` rail
 * down to the row where the line goes on (their own forks likewise). A row's indentation is thus how
 * deeply its side branch is nested, not how many forks lie above it. Everything taken from the
 * entries (ids, labels, names, previews) is made inert (see `sanitizeTerminalText`) and kept on one
 * line. Iterative, so sessions of any depth render without recursion. Pure.
 */
export function sessionTreeRows(
  roots: readonly SessionTreeNode[],
  options: SessionTreeRowOptions,
): SessionTreeRow[] {
  return [
    ...treeRows(
      roots,
      options,
      (node) => node.entry.id,
      (node) => node.entry,
    ),
  ];
}

/**
 * The rows of {@link sessionTreeRows} for a tree shape (`SessionStore.getTreeShape()`), made one at a
 * time as the caller iterates, each entry read with `read` when its row is made: neither the entries
 * nor the rows need to be held. A node whose entry `read` cannot give (`undefined`: a line found
 * corrupt when read) gets no row; its children still do. With `describe`, a row's kind and preview
 * are asked of it first (the entry's id and the room for the preview), and the entry is read only
 * when it answers `undefined`; it must answer what `describeEntry` would for that entry, with a kind
 * and a text that are already inert and on one line (as `clip` makes them), which are used as they are.
 */
export function* sessionTreeShapeRows(
  roots: readonly SessionTreeShapeNode[],
  options: SessionTreeRowOptions,
  read: (id: string) => SessionEntry | undefined,
  describe?: (id: string, width: number) => EntryDescription | undefined,
): Generator<SessionTreeRow> {
  yield* treeRows(
    roots,
    options,
    (node) => node.id,
    (node) => read(node.id),
    describe,
  );
}

/**
 * The nodes from a root to the node of `leafId` (empty when no node has that id). Iterative depth
 * first walk; `path` holds the ancestors of the node being visited.
 */
function nodesToLeaf<N extends RowNode<N>>(
  roots: readonly N[],
  leafId: string | null,
  idOf: (node: N) => string,
): ReadonlySet<N> {
  if (leafId === null) return new Set();
  // Two parallel stacks rather than an object per node: this visits every node of a large session.
  const nodes: N[] = [...roots];
  const depths: number[] = roots.map(() => 0);
  const path: N[] = [];
  while (nodes.length > 0) {
    const node = nodes.pop() as N;
    const depth = depths.pop() as number;
    path.length = depth;
    path.push(node);
    if (idOf(node) === leafId) return new Set(path);
    for (const child of node.children) {
      nodes.push(child);
      depths.push(depth + 1);
    }
  }
  return new Set();
}

/**
 * The row of one entry: its description (`describe(key, room)`, else `describeEntry` of `read(key)`,
 * nothing when that gives no entry), after `lead`, with the label and leaf marker after it. The entry
 * is named by `key` (an id or an entry number) rather than by closures: no two functions per row.
 */
function makeRow<K>(
  lead: string,
  id: string,
  labelText: string | undefined,
  isLeaf: boolean,
  width: number,
  key: K,
  describe: ((key: K, room: number, id: string) => EntryDescription | undefined) | undefined,
  read: (key: K) => SessionEntry | undefined,
): SessionTreeRow | undefined {
  // The row's room depends only on the id (the leaf marker) and the label, known before reading.
  const label = labelText ? `[${inline(labelText)}]` : "";
  const leaf = isLeaf ? "← leaf" : "";
  const suffix = label && leaf ? `  ${label} ${leaf}` : label || leaf ? `  ${label}${leaf}` : "";
  const room = Math.max(20, width - lead.length - 24 - suffix.length);
  let description = describe?.(key, room, id);
  // What `describe` gives (kind and text) is already inert and on one line (see `sessionTreeShapeRows`).
  const inert = description !== undefined;
  if (description === undefined) {
    const entry = read(key);
    if (entry !== undefined) description = describeEntry(entry, room);
  }
  if (description === undefined) return undefined;
  const { kind, text } = description;
  return {
    id,
    text: `${lead}${inline(id).padEnd(8)} ${(inert ? kind : inline(kind)).padEnd(12)} ${inert ? text : inline(text)}${suffix}`.trimEnd(),
  };
}

/**
 * Makes the rows in display order, one at a time. At a fork, the line goes on at the fork's column
 * with one child (the child towards the leaf, else the newest); the other children are side branches,
 * drawn first (oldest first), each behind `├─ ` with a `│` rail down to where the line goes on. So a
 * row is indented by how deep its side branch is nested, never by how many forks the line has passed.
 */
function* treeRows<N extends RowNode<N>>(
  roots: readonly N[],
  options: SessionTreeRowOptions,
  idOf: (node: N) => string,
  entryOf: (node: N) => SessionEntry | undefined,
  describe?: (id: string, width: number) => EntryDescription | undefined,
): Generator<SessionTreeRow> {
  const towardsLeaf = nodesToLeaf(roots, options.leafId, idOf);
  const describeNode = describe && ((node: N, room: number) => describe(idOf(node), room));
  const stack: Frame<N>[] = [];
  const pushChildren = (children: readonly N[], rest: string) => {
    if (children.length === 0) return;
    let main = children.length - 1;
    if (children.length > 1) {
      for (let index = 0; index < children.length; index++) {
        if (towardsLeaf.has(children[index] as N)) main = index;
      }
    }
    // The stack pops last-pushed first: the line's continuation is pushed first, so it comes last.
    stack.push({ node: children[main] as N, lead: rest, rest });
    if (children.length === 1) return;
    const branchLead = `${rest}├─ `;
    const branchRest = `${rest}│  `;
    for (let index = children.length - 1; index >= 0; index--) {
      if (index !== main) stack.push({ node: children[index] as N, lead: branchLead, rest: branchRest });
    }
  };
  pushChildren(roots, "");
  for (let frame = stack.pop(); frame; frame = stack.pop()) {
    const { rest } = frame;
    // A chain of single children goes on at the same column: followed here without a frame each.
    for (let node: N | undefined = frame.node, lead = frame.lead; node !== undefined; lead = rest) {
      const current = node;
      const id = idOf(current);
      const row = makeRow(
        lead,
        id,
        current.label,
        id === options.leafId,
        options.width,
        current,
        describeNode,
        entryOf,
      );
      if (row !== undefined) yield row;
      const children: readonly N[] = node.children;
      if (children.length !== 1) {
        pushChildren(children, rest);
        node = undefined;
      } else node = children[0];
    }
  }
}

/**
 * The rows of {@link sessionTreeShapeRows} for the forest's links (`SessionStore.getTreeLinks()`),
 * made one at a time as the caller iterates, without an object per node: the same rows in the same
 * order. `read` and `describe` are asked by entry number (`describe` first; `read` when it answers
 * `undefined`), with the contracts of `sessionTreeShapeRows`; `describe` is also given the entry's id
 * (`links.id(entry)`, made once per row). `options.leafId` is not used: the leaf is the links' own.
 */
export function* sessionTreeLinkRows(
  links: SessionTreeLinks,
  options: SessionTreeRowOptions,
  read: (entry: number) => SessionEntry | undefined,
  describe?: (entry: number, width: number, id: string) => EntryDescription | undefined,
): Generator<SessionTreeRow> {
  const { firstChild, nextSibling, parent, leaf } = links;
  // The entries from the leaf up to its root: at a fork, the line goes on towards the leaf.
  const towardsLeaf = new Uint8Array(firstChild.length);
  for (let entry = leaf; entry >= 0; entry = parent[entry] as number) towardsLeaf[entry] = 1;
  // The frames of `treeRows`, as three parallel stacks.
  const nodes: number[] = [];
  const leads: string[] = [];
  const rests: string[] = [];
  const pushChildren = (children: readonly number[], rest: string) => {
    if (children.length === 0) return;
    let main = children.length - 1;
    if (children.length > 1) {
      for (let index = 0; index < children.length; index++) {
        if (towardsLeaf[children[index] as number] === 1) main = index;
      }
    }
    nodes.push(children[main] as number);
    leads.push(rest);
    rests.push(rest);
    if (children.length === 1) return;
    const branchLead = `${rest}├─ `;
    const branchRest = `${rest}│  `;
    for (let index = children.length - 1; index >= 0; index--) {
      if (index === main) continue;
      nodes.push(children[index] as number);
      leads.push(branchLead);
      rests.push(branchRest);
    }
  };
  const children: number[] = [];
  pushChildren(links.roots, "");
  while (nodes.length > 0) {
    let node = nodes.pop() as number;
    let lead = leads.pop() as string;
    const rest = rests.pop() as string;
    // A chain of single children goes on at the same column: followed here without a frame each.
    for (; node >= 0; lead = rest) {
      const entry = node;
      const row = makeRow(
        lead,
        links.id(entry),
        links.label(entry),
        entry === leaf,
        options.width,
        entry,
        describe,
        read,
      );
      if (row !== undefined) yield row;
      const first = firstChild[entry] as number;
      if (first >= 0 && nextSibling[first] === -1) node = first;
      else {
        children.length = 0;
        for (let child = first; child >= 0; child = nextSibling[child] as number) children.push(child);
        pushChildren(children, rest);
        node = -1;
      }
    }
  }
}
