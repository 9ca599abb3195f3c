// The golden file format, shared by make-goldens.mjs (pi side) and the package's tests (Arbor side).
// Plain ESM without dependencies; types in golden-format.d.mts.

/** JSON with object keys sorted (undefined dropped, as JSON.stringify does): key order is not semantic. */
export function canonical(value) {
  return JSON.stringify(value, (_key, inner) => {
    if (inner === null || typeof inner !== "object" || Array.isArray(inner)) return inner;
    return Object.fromEntries(
      Object.keys(inner)
        .sort()
        .map((key) => [key, inner[key]]),
    );
  });
}

/** Deep copy of `value` with every string that is a key of `idToRef` replaced by its ref (when different). */
export function normalizeIds(value, idToRef) {
  return JSON.parse(JSON.stringify(value), (_key, inner) => {
    if (typeof inner !== "string") return inner;
    const ref = idToRef.get(inner);
    return ref === undefined ? inner : ref;
  });
}

/** A tree as nested `[ref, label or null, children]`. */
export function describeTree(roots, idToRef) {
  const describe = (node) => [
    idToRef.get(node.entry.id) ?? node.entry.id,
    node.label ?? null,
    node.children.map(describe),
  ];
  return roots.map(describe);
}

/**
 * Projections of a session for the leaf after load (`"(after load)"`), the empty leaf (`null`) and every
 * entry as leaf, through an adapter:
 * `{ entryIds(): string[]; leafAfterLoad(): string | null; select(leaf: string | null | undefined): void;
 *    branch(): { id }[]; project(): { entries: { sourceEntry, messages }[], model, thinkingLevel } }`
 * (`select(undefined)` restores the leaf after load). Returns `{ messages, projections }` where
 * `messages` is the table of distinct messages (normalized ids) and each projection lists
 * `[entry ref, message indices]`. `normalize` is applied to each message before it is looked up in the
 * table (scenarios use it to blank run-time timestamps).
 */
export function collectProjections(adapter, idToRef, normalize = (value) => value) {
  const messages = [];
  const indexByJson = new Map();
  const indexOf = (message) => {
    const normalized = normalize(normalizeIds(message, idToRef));
    const json = canonical(normalized);
    let index = indexByJson.get(json);
    if (index === undefined) {
      index = messages.length;
      indexByJson.set(json, index);
      messages.push(JSON.parse(json));
    }
    return index;
  };
  const ref = (id) => idToRef.get(id) ?? id;
  const projections = [];
  const leaves = [undefined, null, ...adapter.entryIds()];
  for (const leaf of leaves) {
    adapter.select(leaf);
    const projection = adapter.project();
    projections.push({
      leaf: leaf === undefined ? "(after load)" : leaf === null ? null : ref(leaf),
      path: adapter.branch().map((entry) => ref(entry.id)),
      entries: projection.entries.map((entry) => [ref(entry.sourceEntry.id), entry.messages.map(indexOf)]),
      model: normalizeIds(projection.model, idToRef),
      thinkingLevel: projection.thinkingLevel,
    });
  }
  adapter.select(undefined);
  return { messages, projections };
}

/** Adapter of `collectProjections` for pi's SessionManager. */
export function piAdapter(manager) {
  const loadedLeaf = manager.getLeafId();
  return {
    entryIds: () => manager.getEntries().map((entry) => entry.id),
    leafAfterLoad: () => loadedLeaf,
    select: (leaf) => {
      if (leaf === null) manager.resetLeaf();
      else if (leaf === undefined) {
        if (loadedLeaf === null) manager.resetLeaf();
        else manager.branch(loadedLeaf);
      } else manager.branch(leaf);
    },
    branch: () => manager.getBranch(),
    project: () => manager.buildSessionProjection(),
  };
}

/** Adapter of `collectProjections` for an Arbor SessionStore. */
export function arborAdapter(store) {
  const loadedLeaf = store.leafId;
  return {
    entryIds: () => store.getEntries().map((entry) => entry.id),
    leafAfterLoad: () => loadedLeaf,
    select: (leaf) => {
      if (leaf === null) store.resetLeaf();
      else if (leaf === undefined) {
        if (loadedLeaf === null) store.resetLeaf();
        else store.branch(loadedLeaf);
      } else store.branch(leaf);
    },
    branch: () => store.getBranch(),
    project: () => store.getProjection(),
  };
}
