import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { entrySchemas } from "./entry-schemas";
import { isWellFormedEntry, isWellFormedHeader } from "./entry-shape-check";
import { findEntryProblem, findSchemaProblem } from "./validate-entry";

const sessions = join(__dirname, "..", "__fixtures__", "sessions");

/** Every parsable non-header line of the fixture sessions. */
function fixtureEntries(): Record<string, unknown>[] {
  const entries: Record<string, unknown>[] = [];
  for (const file of readdirSync(sessions)) {
    for (const line of readFileSync(join(sessions, file), "utf8").split("\n")) {
      try {
        const value = JSON.parse(line);
        if (value && typeof value === "object" && value.type !== "session") entries.push(value);
      } catch {
        // corrupt fixture lines are not entries
      }
    }
  }
  return entries;
}

const odd: unknown[] = [
  undefined,
  null,
  0,
  Number.NaN,
  Number.POSITIVE_INFINITY,
  "",
  "x",
  true,
  [],
  [{}],
  [{ type: 1 }],
  {},
  { role: "system" },
];

/** The entry with one field (top level, or one level down) replaced by each odd value. */
function* variants(entry: Record<string, unknown>): Generator<unknown> {
  for (const key of Object.keys(entry)) {
    for (const value of odd) yield { ...entry, [key]: value };
    const inner = entry[key];
    if (inner && typeof inner === "object" && !Array.isArray(inner)) {
      for (const innerKey of Object.keys(inner)) {
        for (const value of odd) yield { ...entry, [key]: { ...inner, [innerKey]: value } };
      }
    }
  }
}

describe("isWellFormedEntry", () => {
  const entries = fixtureEntries();

  it("vouches for the valid fixture entries (the schemas agree they are valid)", () => {
    expect(entries.length).toBeGreaterThan(50);
    let vouched = 0;
    for (const entry of entries) {
      if (!isWellFormedEntry(entry)) continue;
      vouched++;
      expect(findSchemaProblem(entry)).toBeUndefined();
    }
    expect(vouched).toBeGreaterThan(entries.length * 0.8);
  });

  it("never vouches for an entry the schemas reject (mutated fixture entries)", () => {
    let rejected = 0;
    for (const entry of entries) {
      for (const variant of variants(entry)) {
        const problem = findSchemaProblem(variant);
        if (problem !== undefined) {
          rejected++;
          expect(isWellFormedEntry(variant), JSON.stringify(variant).slice(0, 200)).toBe(false);
          expect(findEntryProblem(variant)).toBe(problem);
        }
      }
    }
    expect(rejected).toBeGreaterThan(1000);
  });

  it("agrees with the schema on system message sections and tool lists", () => {
    const system = (message: Record<string, unknown>) => ({
      type: "message",
      id: "s",
      parentId: null,
      timestamp: "t",
      message: { role: "system", content: "", ...message },
    });
    const nullPrototype = Object.assign(Object.create(null), { a: "x", b: null });
    const cases = [
      { sections: { a: "x", b: null } },
      { sections: nullPrototype },
      { sections: { a: 1 } },
      { sections: { a: { b: "c" } } },
      { sections: ["x"] },
      { toolsAdded: [{ name: "read", description: "d" }] },
      { toolsAdded: [{ description: "d" }] },
      { toolsRemoved: [{ name: 1 }] },
      { toolsRemoved: "read" },
    ];
    for (const fields of cases) {
      const entry = system(fields);
      const valid = findSchemaProblem(entry) === undefined;
      if (isWellFormedEntry(entry)) expect(valid, JSON.stringify(fields)).toBe(true);
      else expect(valid, JSON.stringify(fields)).toBe(false);
    }
  });

  it("vouches for a header only when the header schema accepts it", () => {
    const header = { type: "session", version: 3, id: "h", timestamp: "t", cwd: "/w" };
    expect(isWellFormedHeader(header)).toBe(true);
    let rejected = 0;
    for (const variant of [header, ...variants(header), { ...header, parentSession: 1 }]) {
      const valid = entrySchemas().headerSchema.safeParse(variant).success;
      if (!valid) rejected++;
      if (isWellFormedHeader(variant)) expect(valid, JSON.stringify(variant)).toBe(true);
    }
    expect(rejected).toBeGreaterThan(20);
  });

  it("leaves entry types named like Object members to the unknown-type schema", () => {
    const entry = { type: "constructor", id: "a", parentId: null, timestamp: "t" };
    expect(findSchemaProblem(entry)).toBeUndefined();
    expect(findSchemaProblem({ ...entry, id: 1 })).toMatch(/id/);
  });
});
