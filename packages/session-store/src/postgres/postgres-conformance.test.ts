/**
 * The conformance suite against the PostgreSQL backend: pi's goldens (every fixture, every write
 * scenario) and the random-session property test, with the same expectations as the JSONL and
 * in-memory backends (src/conformance.test.ts, src/session-store.property.test.ts).
 */
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { testPostgres } from "@arbor/test-postgres";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { canonical } from "../../scripts/golden-format.mjs";
import {
  describeArborFinal,
  replayScenarioWithArbor,
  type ScenarioSpec,
} from "../../scripts/golden-scenarios.mjs";
import {
  describeStore,
  fixturesDir,
  readGolden,
  type SessionGolden,
  scenariosDir,
} from "../__fixtures__/describe-store";
import { createRandom, RandomSessionDriver } from "../__fixtures__/random-session";
import { createInMemorySessionStore } from "../create-in-memory-session-store";
import { openSessionStore } from "../open-session-store";
import { buildSessionProjection } from "../projection/build-session-projection";
import type { SessionStore } from "../session-store";
import { exportPostgresSession } from "./export-postgres-session";
import { importPostgresSession } from "./import-postgres-session";
import { readTuning, WHOLE_SESSION_LINES } from "./internal/read-session-text";
import { openPostgresSessionStore } from "./open-postgres-session-store";
import { migratePostgres } from "./postgres-migrations";

const db = await testPostgres();
const problem = db.skipReason();
const target = db.target("conformance");
const skipped = problem ? ` (skipped: ${problem})` : "";

function expectSameAsPure(store: SessionStore, leafId?: string | null) {
  const leaf = leafId === undefined ? store.leafId : leafId;
  expect(store.getProjection(leafId)).toEqual(buildSessionProjection(store.getEntries(), leaf));
}

describe.skipIf(problem !== undefined)(`conformance on PostgreSQL${skipped}`, () => {
  beforeAll(async () => {
    await migratePostgres(target);
    // Every fixture through the light-record open (records first, lines fetched), not read whole.
    readTuning.wholeSessionLines = 0;
  });
  afterAll(async () => {
    readTuning.wholeSessionLines = WHOLE_SESSION_LINES;
    await db.dropSchema(target.schema);
  });

  const fixtures = readdirSync(fixturesDir).filter((name) => name.endsWith(".jsonl"));
  it.each(fixtures)("fixture %s: pi's tree, labels, name and projection for every leaf", async (fixture) => {
    const golden = readGolden<SessionGolden>(fixture.replace(/\.jsonl$/, ".json"));
    const { refs, header, leafAfterLoad, sessionName, labels, entries, tree, messages, projections } = golden;
    const expected = { header, leafAfterLoad, sessionName, labels, entries, tree, messages, projections };
    const id = await importPostgresSession(target, readFileSync(join(fixturesDir, fixture), "utf8"), {
      sessionId: `golden-${fixture}`,
      migrate: false,
    });
    const store = await openPostgresSessionStore(target, id, { mode: "read" });
    try {
      expect(canonical(describeStore(store, refs))).toBe(canonical(expected));
    } finally {
      store.close();
    }
  });

  it("reports the corrupt line and the torn tail of corrupt-lines.jsonl as the file backend does", async () => {
    const text = readFileSync(join(fixturesDir, "corrupt-lines.jsonl"), "utf8");
    const id = await importPostgresSession(target, text, { sessionId: "issues", migrate: false });
    const store = await openPostgresSessionStore(target, id, { mode: "read" });
    store.close();
    expect(store.issues.map((issue) => [issue.code, issue.line])).toEqual([
      ["SESSION_LINE_CORRUPT", 3],
      ["SESSION_TAIL_TORN", 8],
    ]);
  });

  const scenarios = readdirSync(scenariosDir).filter((name) => name.endsWith(".json"));
  it.each(scenarios)(
    "scenario %s: pi's write-time rules, then the same session read back",
    async (scenario) => {
      const spec = JSON.parse(readFileSync(join(scenariosDir, scenario), "utf8")) as ScenarioSpec;
      const golden = readGolden<{ steps: Array<{ op: string; created?: number }>; final: unknown }>(
        `scenario-${scenario}`,
      );
      const text = readFileSync(join(fixturesDir, spec.fixture), "utf8");
      const refs = readGolden<SessionGolden>(spec.fixture.replace(/\.jsonl$/, ".json")).refs;
      const id = await importPostgresSession(target, text, {
        sessionId: `scenario-${scenario}`,
        migrate: false,
      });
      const writer = await openPostgresSessionStore(target, id);
      const { store, steps } = replayScenarioWithArbor(
        { createInMemorySessionStore: () => writer, openSessionStore },
        undefined,
        spec,
        text,
      );
      expect(steps.map((step) => [step.op, step.created ?? "error"])).toEqual(
        golden.steps.map((step) => [step.op, step.created ?? "error"]),
      );
      expect(canonical(describeArborFinal(store, refs))).toBe(canonical(golden.final));
      if (store === writer) {
        await writer.flush();
        const reread = await openPostgresSessionStore(target, id, { mode: "read" });
        reread.branch(writer.leafId as string);
        expect(canonical(describeArborFinal(reread, refs))).toBe(canonical(golden.final));
        reread.close();
      }
      (store as SessionStore).close();
      writer.close();
    },
  );

  for (const seed of [1, 2, 3, 4]) {
    it(`random session (seed ${seed}): the same projections as the pure functions and as memory, written and read back`, async () => {
      const random = createRandom(seed);
      const store = await openPostgresSessionStore(target, `random-${seed}`, {
        cwd: "/p",
        now: RandomSessionDriver.clockFor(),
      });
      const driver = new RandomSessionDriver(store, random);
      for (let step = 0; step < 150; step++) {
        driver.step();
        expectSameAsPure(store);
      }
      await store.flush();
      store.close();
      const text = await exportPostgresSession(target, `random-${seed}`);
      const memory = createInMemorySessionStore({ content: text });
      const reopened = await openPostgresSessionStore(target, `random-${seed}`, { mode: "read" });
      expect(reopened.getEntries()).toEqual(store.getEntries());
      const ids = reopened.getEntries().map((entry) => entry.id);
      for (let probe = 0; probe < 20; probe++) {
        const leafId = ids[Math.floor(random() * ids.length)] as string;
        reopened.branch(leafId);
        memory.branch(leafId);
        expectSameAsPure(reopened);
        expect(reopened.getProjection()).toEqual(memory.getProjection());
      }
      reopened.close();
    });
  }
});
