#!/usr/bin/env node
import {
  copyFileSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  writeFileSync,
} from "node:fs";
import { tmpdir } from "node:os";
import { basename, dirname, join } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { ensurePiOracle, PI_VERSION } from "../../../scripts/pi-oracle.mjs";
import { canonical, collectProjections, describeTree, normalizeIds, piAdapter } from "./golden-format.mjs";
import { replayScenarioWithArbor, replayScenarioWithPi } from "./golden-scenarios.mjs";

const packageRoot = join(dirname(fileURLToPath(import.meta.url)), "..");
const fixturesDir = join(packageRoot, "src", "__fixtures__", "sessions");
const scenariosDir = join(packageRoot, "src", "__fixtures__", "scenarios");
const goldensDir = join(packageRoot, "src", "__goldens__");
const checkOnly = process.argv.includes("--check");

const piPackage = ensurePiOracle();
// Deep modules by file URL: pi's index needs Node >= 22.19, these load on Node 20.
const pi = await import(pathToFileURL(join(piPackage, "dist", "core", "session-manager.js")).href);
const arbor = await import(pathToFileURL(join(packageRoot, "dist", "index.js")).href);

/** Loads session text the way the oracle recipe does: parse (malformed lines skipped), then inMemory. */
function piLoad(text) {
  return pi.SessionManager.inMemory("/work/demo", undefined, pi.parseSessionEntries(text));
}

/** `refs[k]`: how the goldens name the k-th entry in file order (its id in the file, else `#k`). */
function fileRefs(text) {
  return pi
    .parseSessionEntries(text)
    .filter((entry) => entry.type !== "session")
    .map((entry, k) => (typeof entry.id === "string" ? entry.id : `#${k}`));
}

/** Everything the goldens record about one loaded session. */
function describeSession(text, refs) {
  const manager = piLoad(text);
  const entries = manager.getEntries();
  const idToRef = new Map(entries.map((entry, k) => [entry.id, refs[k]]));
  const leafAfterLoad = manager.getLeafId();
  const labels = {};
  for (const entry of entries) {
    const label = manager.getLabel(entry.id);
    if (label !== undefined) labels[idToRef.get(entry.id)] = label;
  }
  return {
    header: { version: manager.getHeader()?.version },
    leafAfterLoad: leafAfterLoad === null ? null : idToRef.get(leafAfterLoad),
    sessionName: manager.getSessionName() ?? null,
    labels,
    entries: entries.map((entry) => normalizeIds(entry, idToRef)),
    tree: describeTree(manager.getTree(), idToRef),
    ...collectProjections(piAdapter(manager), idToRef),
  };
}

const fixtures = readdirSync(fixturesDir)
  .filter((name) => name.endsWith(".jsonl"))
  .sort();
const scenarios = existsSync(scenariosDir)
  ? readdirSync(scenariosDir)
      .filter((name) => name.endsWith(".json"))
      .sort()
  : [];
mkdirSync(goldensDir, { recursive: true });
let failures = 0;
const fail = (message) => {
  failures++;
  console.error(`MISMATCH ${message}`);
};

function writeOrCheckGolden(name, golden) {
  const path = join(goldensDir, name);
  const text = `${JSON.stringify(golden, null, 1)}\n`;
  if (checkOnly) {
    if (!existsSync(path) || readFileSync(path, "utf8") !== text)
      fail(`${name}: golden is missing or out of date`);
  } else writeFileSync(path, text);
  return golden;
}

const goldens = new Map();
for (const fixture of fixtures) {
  const text = readFileSync(join(fixturesDir, fixture), "utf8");
  const golden = { pi: PI_VERSION, fixture, refs: fileRefs(text), ...describeSession(text, fileRefs(text)) };
  goldens.set(fixture, writeOrCheckGolden(fixture.replace(/\.jsonl$/, ".json"), golden));
}
for (const scenario of scenarios) {
  const spec = JSON.parse(readFileSync(join(scenariosDir, scenario), "utf8"));
  const text = readFileSync(join(fixturesDir, spec.fixture), "utf8");
  const result = replayScenarioWithPi(pi, text, spec, fileRefs(text));
  writeOrCheckGolden(`scenario-${scenario}`, { pi: PI_VERSION, scenario, fixture: spec.fixture, ...result });
}

// Round trips: files written by Arbor must load in pi with the goldens' projection.
const scratch = mkdtempSync(join(tmpdir(), "arbor-goldens-"));
const sameProjections = (label, actual, expected) => {
  if (canonical(actual) === canonical(expected)) return;
  fail(label);
  if (process.env.GOLDEN_DEBUG) {
    writeFileSync(join(tmpdir(), "golden-actual.json"), JSON.stringify(actual, null, 1));
    writeFileSync(join(tmpdir(), "golden-expected.json"), JSON.stringify(expected, null, 1));
  }
};
try {
  for (const fixture of fixtures) {
    const golden = goldens.get(fixture);
    const work = join(scratch, basename(fixture, ".jsonl"));
    mkdirSync(work);
    const source = join(work, "source.jsonl");
    copyFileSync(join(fixturesDir, fixture), source);

    // (a) copy: every entry written again by Arbor into a new file.
    const store = arbor.openSessionStore(source);
    const copy = store.copySession({ path: join(work, "copy.jsonl") });
    copy.close();
    const copied = describeSession(readFileSync(join(work, "copy.jsonl"), "utf8"), golden.refs);
    sameProjections(`${fixture}: copy written by Arbor`, copied.projections, golden.projections);
    sameProjections(`${fixture}: copy entries`, copied.entries, golden.entries);

    // (b) clone of every leaf: pi must see the same messages as on the original leaf.
    for (const projection of golden.projections) {
      if (projection.leaf === null || projection.leaf === "(after load)") continue;
      const k = golden.refs.indexOf(projection.leaf);
      const id = store.getEntries()[k]?.id;
      store.branch(id);
      const clonePath = join(work, `clone-${k}.jsonl`);
      store.cloneSession({ path: clonePath }).close();
      const manager = piLoad(readFileSync(clonePath, "utf8"));
      const messages = manager.buildSessionProjection().messages.map((message) => canonical(message));
      const expected = projection.entries.flatMap(([, indices]) =>
        indices.map((index) => canonical(golden.messages[index])),
      );
      if (canonical(messages) !== canonical(expected)) fail(`${fixture}: clone at ${projection.leaf}`);
    }
    const migrated = store.isMigrationPending;
    store.close();

    // (c) migration: Arbor rewrites an old file at version 3 (keeping a backup); pi reads it.
    if (migrated) {
      const reopened = arbor.openSessionStore(source);
      const { backupPath } = reopened.persistMigration();
      reopened.close();
      if (
        !backupPath ||
        readFileSync(backupPath, "utf8") !== readFileSync(join(fixturesDir, fixture), "utf8")
      ) {
        fail(`${fixture}: the original was not kept as a backup`);
      }
      const rewritten = describeSession(readFileSync(source, "utf8"), golden.refs);
      if (rewritten.header.version !== 3) fail(`${fixture}: rewritten file is not version 3`);
      sameProjections(
        `${fixture}: migrated file rewritten by Arbor`,
        rewritten.projections,
        golden.projections,
      );
    }
  }
  for (const scenario of scenarios) {
    const spec = JSON.parse(readFileSync(join(scenariosDir, scenario), "utf8"));
    const golden = JSON.parse(readFileSync(join(goldensDir, `scenario-${scenario}`), "utf8"));
    const path = join(scratch, `scenario-${scenario}.jsonl`);
    copyFileSync(join(fixturesDir, spec.fixture), path);
    const written = replayScenarioWithArbor(arbor, path, spec);
    const text = readFileSync(written, "utf8");
    const reloaded = replayScenarioWithPi(
      pi,
      text,
      { ...spec, steps: [] },
      fileRefs(readFileSync(join(fixturesDir, spec.fixture), "utf8")),
    );
    // The leaf after reloading is the file's last entry, not where the scenario left it: skip "(after load)".
    sameProjections(
      `scenario ${scenario}: projections of the file written by Arbor`,
      reloaded.final.projections.slice(1),
      golden.final.projections.slice(1),
    );
    sameProjections(
      `scenario ${scenario}: entries of the file written by Arbor`,
      reloaded.final.entries,
      golden.final.entries,
    );
  }
} finally {
  rmSync(scratch, { recursive: true, force: true });
}

console.log(
  `${fixtures.length} fixtures, ${scenarios.length} scenarios: ${failures === 0 ? "pi agrees with every file Arbor wrote" : `${failures} mismatches`}`,
);
process.exit(failures === 0 ? 0 : 1);
