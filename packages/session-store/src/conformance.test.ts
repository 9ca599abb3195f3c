/**
 * Golden conformance with pi 1.6.0, without pi: the goldens in src/__goldens__ were written by
 * scripts/make-goldens.mjs running pi on the fixtures in src/__fixtures__. Here Arbor (the store over
 * real files, the in-memory store and the pure functions) must produce exactly the same.
 */
import { copyFileSync, mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { canonical, collectProjections, type ProjectionAdapter } from "../scripts/golden-format.mjs";
import {
  describeArborFinal,
  replayScenarioWithArbor,
  type ScenarioSpec,
} from "../scripts/golden-scenarios.mjs";
import { describeStore, idMap, readGolden, type SessionGolden } from "./__fixtures__/describe-store";
import { createInMemorySessionStore } from "./create-in-memory-session-store";
import { openSessionStore } from "./open-session-store";
import { buildSessionPath } from "./projection/build-session-path";
import { buildSessionProjection } from "./projection/build-session-projection";
import type { SessionEntry } from "./session-entry";

const root = join(import.meta.dirname, "..");
const fixturesDir = join(root, "src", "__fixtures__", "sessions");
const scenariosDir = join(root, "src", "__fixtures__", "scenarios");
const scratch = mkdtempSync(join(tmpdir(), "arbor-conformance-"));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

/** The pure functions over a plain entry array, behind the same adapter. */
function pureAdapter(entries: readonly SessionEntry[]): ProjectionAdapter {
  let leaf: string | null | undefined;
  return {
    entryIds: () => entries.map((entry) => entry.id),
    leafAfterLoad: () => entries[entries.length - 1]?.id ?? null,
    select: (next) => {
      leaf = next;
    },
    branch: () => buildSessionPath(entries, leaf),
    project: () => buildSessionProjection(entries, leaf),
  };
}

const fixtures = readdirSync(fixturesDir).filter((name) => name.endsWith(".jsonl"));

describe.each(fixtures)("fixture %s", (fixture) => {
  const golden = readGolden<SessionGolden>(fixture.replace(/\.jsonl$/, ".json"));
  const { refs, header, leafAfterLoad, sessionName, labels, entries, tree, messages, projections } = golden;
  const expected = { header, leafAfterLoad, sessionName, labels, entries, tree, messages, projections };

  it("loads from a file with pi's tree, labels, name and projection for every leaf", () => {
    const path = join(scratch, fixture);
    copyFileSync(join(fixturesDir, fixture), path);
    const store = openSessionStore(path);
    try {
      const actual = describeStore(store, refs);
      expect(canonical(actual.entries)).toBe(canonical(expected.entries));
      expect(canonical(actual.projections)).toBe(canonical(expected.projections));
      expect(canonical(actual)).toBe(canonical(expected));
    } finally {
      store.close();
    }
  });

  it("gives the same from the in-memory store and from the pure functions", () => {
    const store = createInMemorySessionStore({ content: readFileSync(join(fixturesDir, fixture), "utf8") });
    expect(canonical(describeStore(store, refs))).toBe(canonical(expected));
    const all = store.getEntries();
    const pure = collectProjections(pureAdapter(all), idMap(all, refs));
    expect(canonical(pure)).toBe(canonical({ messages, projections }));
  });
});

describe("fixture corrupt-lines.jsonl", () => {
  it("reports the corrupt line and the torn tail instead of dropping them silently", () => {
    const path = join(scratch, "issues-corrupt-lines.jsonl");
    copyFileSync(join(fixturesDir, "corrupt-lines.jsonl"), path);
    const store = openSessionStore(path);
    store.close();
    expect(store.issues.map((issue) => [issue.code, issue.line])).toEqual([
      ["SESSION_LINE_CORRUPT", 3],
      ["SESSION_TAIL_TORN", 8],
    ]);
  });
});

const PI_ERRORS: Array<[RegExp, string]> = [
  [/not found/, "ENTRY_NOT_FOUND"],
  [/not on the active branch|editable model content|replacement must be/, "CONTEXT_EDIT_INVALID"],
];

const scenarios = readdirSync(scenariosDir).filter((name) => name.endsWith(".json"));

describe.each(scenarios)("scenario %s", (scenario) => {
  const spec = JSON.parse(readFileSync(join(scenariosDir, scenario), "utf8")) as ScenarioSpec;
  const golden = readGolden<{
    steps: Array<{ op: string; created?: number; error?: string }>;
    final: unknown;
  }>(`scenario-${scenario}`);
  const text = readFileSync(join(fixturesDir, spec.fixture), "utf8");
  const refs = readGolden<SessionGolden>(spec.fixture.replace(/\.jsonl$/, ".json")).refs;

  it("applies pi's write-time rules, step by step, and ends with pi's entries and projections", () => {
    const { store, steps } = replayScenarioWithArbor(
      { createInMemorySessionStore, openSessionStore },
      undefined,
      spec,
      text,
    );
    expect(steps.map((step) => [step.op, step.created ?? "error"])).toEqual(
      golden.steps.map((step) => [step.op, step.created ?? "error"]),
    );
    for (const [index, step] of golden.steps.entries()) {
      if (step.error === undefined) continue;
      const code = PI_ERRORS.find(([pattern]) => pattern.test(step.error as string))?.[1];
      expect({ step: index, code: steps[index]?.code }).toEqual({ step: index, code });
    }
    expect(canonical(describeArborFinal(store, refs))).toBe(canonical(golden.final));
  });
});
