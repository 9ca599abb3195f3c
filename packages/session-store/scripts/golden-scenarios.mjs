// Scenario goldens: write operations applied to a fixture, with pi (oracle) or Arbor. Each step names a
// SessionManager operation; `$n` in arguments refers to the n-th entry created during the scenario.
// Results are normalized: new ids become `$n` (file order), times after 2024 become "<now>".
import { arborAdapter, canonical, collectProjections, normalizeIds, piAdapter } from "./golden-format.mjs";

const NOW = Date.parse("2025-01-01T00:00:00.000Z");

/** Replaces run-time timestamps (ISO strings and milliseconds after 2024) with "<now>". */
export function normalizeTimes(value) {
  return JSON.parse(JSON.stringify(value), (key, inner) => {
    if (key === "timestamp" && typeof inner === "string" && Date.parse(inner) >= NOW) return "<now>";
    if (key === "timestamp" && typeof inner === "number" && inner >= NOW) return "<now>";
    return inner;
  });
}

/** Maps ids not present in `refs` to `$1`, `$2`, ... in the order of `entries`; fixture ids map to their refs. */
export function scenarioIdMap(entries, refs) {
  const known = new Set(refs);
  const idToRef = new Map();
  let next = 1;
  for (const entry of entries) {
    if (!known.has(entry.id) && !idToRef.has(entry.id)) idToRef.set(entry.id, `$${next++}`);
  }
  return idToRef;
}

function describeFinal(adapter, entries, label, name, refs) {
  const idToRef = scenarioIdMap(entries, refs);
  return normalizeTimes({
    entries: entries.map((entry) => normalizeIds(entry, idToRef)),
    labels: Object.fromEntries(
      entries.flatMap((entry) =>
        label(entry.id) === undefined ? [] : [[idToRef.get(entry.id) ?? entry.id, label(entry.id)]],
      ),
    ),
    sessionName: name() ?? null,
    ...collectProjections(adapter, idToRef, normalizeTimes),
  });
}

/** Replaces ids created during the scenario with their `$n` names in an error message. */
export function normalizeMessage(message, created) {
  return created.reduce((text, id, index) => text.split(id).join(`$${index + 1}`), message);
}

function resolveArgs(args, created) {
  return JSON.parse(JSON.stringify(args), (_key, inner) =>
    typeof inner === "string" && /^\$\d+$/.test(inner)
      ? (created[Number(inner.slice(1)) - 1] ?? inner)
      : inner,
  );
}

/** Applies the scenario with pi's SessionManager (in memory); returns step results and the final state. */
export function replayScenarioWithPi(pi, text, spec, refs) {
  const manager = pi.SessionManager.inMemory("/work/demo", undefined, pi.parseSessionEntries(text));
  const created = [];
  const steps = [];
  const before = new Set(manager.getEntries().map((entry) => entry.id));
  for (const step of spec.steps) {
    const args = resolveArgs(step.args ?? [], created);
    try {
      manager[step.op](...args);
      const ids = manager
        .getEntries()
        .map((entry) => entry.id)
        .filter((id) => !before.has(id) && !created.includes(id));
      created.push(...ids);
      steps.push({ op: step.op, created: ids.length });
    } catch (error) {
      steps.push({ op: step.op, error: normalizeMessage(String(error.message), created) });
    }
  }
  const entries = manager.getEntries();
  const final = describeFinal(
    piAdapter(manager),
    entries,
    (id) => manager.getLabel(id),
    () => manager.getSessionName(),
    refs,
  );
  return { steps, final };
}

const ARBOR_CALLS = {
  appendMessage: (store, [message]) => store.appendMessage(message),
  appendThinkingLevelChange: (store, [level]) => store.appendThinkingLevelChange(level),
  appendModelChange: (store, [provider, modelId]) => store.appendModelChange(provider, modelId),
  appendUsage: (store, [kind, provider, model, usage, note]) =>
    store.appendUsage({ kind, provider, model, usage, note }),
  appendCompaction: (store, [summary, firstKeptEntryId, tokensBefore, details, fromHook, usage]) =>
    store.appendCompaction({
      summary,
      firstKeptEntryId: firstKeptEntryId ?? null,
      tokensBefore,
      details,
      fromHook,
      usage,
    }),
  appendCustomEntry: (store, [customType, data]) => store.appendCustomEntry(customType, data),
  appendCustomMessageEntry: (store, [customType, content, display, details]) =>
    store.appendCustomMessageEntry({ customType, content, display, details }),
  appendContextEdit: (store, [targetId, replacement]) => store.appendContextEdit(targetId, replacement),
  appendLabelChange: (store, [targetId, label]) => store.appendLabelChange(targetId, label),
  appendSessionInfo: (store, [name]) => store.appendSessionInfo(name),
  branch: (store, [id]) => store.branch(id),
  resetLeaf: (store) => store.resetLeaf(),
  branchWithSummary: (store, [fromId, summary, details, fromHook, usage]) =>
    store.branchWithSummary(fromId, { summary, details, fromHook, usage }),
};

/**
 * Applies the scenario with an Arbor SessionStore. `target` is either a file path (the store is
 * opened there; returns the path of the file holding the final session) or `undefined` (in memory;
 * returns `{ store, steps }`). `createBranchedSession(leafId)` becomes `forkSession(leafId)`.
 */
export function replayScenarioWithArbor(arbor, target, spec, text) {
  let store =
    target === undefined
      ? arbor.createInMemorySessionStore({ content: text })
      : arbor.openSessionStore(target);
  let path = target;
  const created = [];
  const steps = [];
  const before = new Set(store.getEntries().map((entry) => entry.id));
  for (const [index, step] of spec.steps.entries()) {
    const args = resolveArgs(step.args ?? [], created);
    try {
      if (step.op === "createBranchedSession") {
        const forkPath = path === undefined ? undefined : `${path}.fork-${index}.jsonl`;
        const fork = store.forkSession(args[0], forkPath === undefined ? {} : { path: forkPath });
        store.close();
        store = fork;
        path = forkPath;
      } else ARBOR_CALLS[step.op](store, args);
      const ids = store
        .getEntries()
        .map((entry) => entry.id)
        .filter((id) => !before.has(id) && !created.includes(id));
      created.push(...ids);
      steps.push({ op: step.op, created: ids.length });
    } catch (error) {
      steps.push({ op: step.op, error: normalizeMessage(String(error.message), created), code: error.code });
    }
  }
  if (target === undefined) return { store, steps };
  store.close();
  return path;
}

/** The final state of an Arbor store in the scenario golden format. */
export function describeArborFinal(store, refs) {
  return describeFinal(
    arborAdapter(store),
    store.getEntries(),
    (id) => store.getLabel(id),
    () => store.getSessionName(),
    refs,
  );
}

export { canonical };
