import type { SeededRandom } from "./seeded-random";

/** The ways {@link mutateLine} damages a session line. */
export const MUTATION_KINDS = [
  "flip-bits",
  "truncate",
  "duplicate-key",
  "invalid-utf8",
  "huge-number",
  "wrong-type",
  "delete-field",
  "swap-id",
  "dangling-parent",
  "unknown-type",
  "split-line",
  "control-char",
  "garbage",
  "proto-key",
  "deep-nesting",
  "duplicate-line",
  "whitespace",
] as const;

/** One of {@link MUTATION_KINDS}. */
export type MutationKind = (typeof MUTATION_KINDS)[number];

/** What a mutation made of one line: the lines that replace it (raw bytes, no newline). */
export interface Mutation {
  kind: MutationKind;
  lines: Buffer[];
}

/** Context of a mutation: the random source and the ids of the other entries of the session. */
export interface MutationContext {
  rng: SeededRandom;
  ids: readonly string[];
}

type Json = null | boolean | number | string | Json[] | { [key: string]: Json };
type Path = (string | number)[];

const GARBAGE = [
  "",
  "null",
  "[]",
  "42",
  '"text"',
  "{}",
  '{"type":null}',
  '{"type":7,"id":"x"}',
  "}{",
  '{"type":"message"',
  "nul",
  "[{}]",
  "tru",
];
const HUGE = [
  "1e400",
  "-1e400",
  "123456789012345678901234567890",
  "9007199254740993",
  "-0",
  "1e-400",
  "0.1e999999",
];
const OTHER_VALUES: Json[] = [null, true, 0, -1, 1.5, "", "x", [], {}, [1, "a"], { role: 1 }];

function collectPaths(value: Json, path: Path, out: Path[], depth: number): void {
  if (path.length > 0) out.push(path);
  if (depth === 0 || value === null || typeof value !== "object") return;
  const keys: (string | number)[] = Array.isArray(value) ? value.map((_, i) => i) : Object.keys(value);
  for (const key of keys) {
    collectPaths((value as Record<string | number, Json>)[key] as Json, [...path, key], out, depth - 1);
  }
}

function setAt(
  root: Json,
  path: Path,
  update: (parent: Record<string | number, Json>, key: string | number) => void,
): void {
  let node = root as Record<string | number, Json>;
  for (const key of path.slice(0, -1)) node = node[key] as Record<string | number, Json>;
  update(node, path[path.length - 1] as string | number);
}

/** A JSON-level edit: parse, change the value at a random path, serialize again. */
function editJson(
  line: string,
  rng: SeededRandom,
  edit: (parent: Record<string | number, Json>, key: string | number) => void,
): Buffer {
  const root = JSON.parse(line) as Json;
  const paths: Path[] = [];
  collectPaths(root, [], paths, 4);
  if (paths.length > 0) setAt(root, rng.pick(paths), edit);
  return Buffer.from(JSON.stringify(root));
}

/** Puts `insert` at a random byte offset of `line`. */
function insertAt(line: Buffer, rng: SeededRandom, insert: Buffer): Buffer {
  const at = rng.int(line.length + 1);
  return Buffer.concat([line.subarray(0, at), insert, line.subarray(at)]);
}

/** Replaces the top-level `key` of a JSON line by `value` (the line is re-serialized in the same key order). */
function withTopLevel(line: string, key: string, value: Json): Buffer {
  const entry = JSON.parse(line) as Record<string, Json>;
  entry[key] = value;
  return Buffer.from(JSON.stringify(entry));
}

/**
 * Damages one valid session line (a JSON object, no newline) in the way named by `kind`,
 * deterministically from `context.rng`. Returns the replacing lines: usually one, two for
 * `split-line` and `duplicate-line`. The result may still be valid JSON (wrong types, duplicate or
 * dangling ids, unknown types) or not (flipped bits, truncation, invalid UTF-8, garbage).
 */
export function mutateLine(line: string, kind: MutationKind, context: MutationContext): Mutation {
  const { rng } = context;
  const bytes = Buffer.from(line);
  const one = (b: Buffer): Mutation => ({ kind, lines: [b] });
  switch (kind) {
    case "flip-bits": {
      const out = Buffer.from(bytes);
      for (let n = rng.between(1, 3); n > 0; n--) {
        const at = rng.int(out.length);
        out[at] = (out[at] as number) ^ (1 << rng.int(8));
      }
      return one(out);
    }
    case "truncate":
      return one(bytes.subarray(0, rng.int(bytes.length)));
    case "duplicate-key": {
      const key = rng.pick([
        "id",
        "parentId",
        "type",
        "message",
        "timestamp",
        "targetId",
        "firstKeptEntryId",
      ]);
      const value = JSON.stringify(
        rng.chance(0.5) && context.ids.length > 0 ? rng.pick(context.ids) : rng.pick(OTHER_VALUES),
      );
      const text = rng.chance(0.5)
        ? `${line.slice(0, -1)},"${key}":${value}}`
        : `{"${key}":${value},${line.slice(1)}`;
      return one(Buffer.from(text));
    }
    case "invalid-utf8": {
      const bad = rng.pick([
        [0xff],
        [0xc3, 0x28],
        [0xe2, 0x82],
        [0xf0, 0x9f, 0x98],
        [0xed, 0xa0, 0x80],
        [0x80],
      ]);
      if (rng.chance(0.3)) return one(Buffer.from(line.replace(/"([^"\\]{2,})"/, '"\\ud800$1"')));
      return one(insertAt(bytes, rng, Buffer.from(bad)));
    }
    case "huge-number": {
      const numbers = [...line.matchAll(/(?<=[:,[])-?\d+(\.\d+)?([eE][+-]?\d+)?(?=[,}\]])/g)];
      const target = numbers.length > 0 ? rng.pick(numbers) : undefined;
      if (!target || target.index === undefined)
        return one(Buffer.from(`${line.slice(0, -1)},"n":${rng.pick(HUGE)}}`));
      const text = line.slice(0, target.index) + rng.pick(HUGE) + line.slice(target.index + target[0].length);
      return one(Buffer.from(text));
    }
    case "wrong-type":
      return one(
        editJson(line, rng, (parent, key) => {
          const current = parent[key];
          let next = rng.pick(OTHER_VALUES);
          while (JSON.stringify(next) === JSON.stringify(current)) next = rng.pick(OTHER_VALUES);
          parent[key] = next;
        }),
      );
    case "delete-field":
      return one(
        editJson(line, rng, (parent, key) => {
          if (Array.isArray(parent)) parent.splice(key as number, 1);
          else delete parent[key];
        }),
      );
    case "swap-id": {
      const entry = JSON.parse(line) as Record<string, Json>;
      const other = context.ids.length > 0 ? rng.pick(context.ids) : "00000000";
      if (rng.chance(0.5)) [entry.id, entry.parentId] = [entry.parentId ?? null, entry.id ?? null];
      else entry[rng.pick(["id", "parentId", "targetId", "firstKeptEntryId"])] = other;
      return one(Buffer.from(JSON.stringify(entry)));
    }
    case "dangling-parent":
      return one(
        withTopLevel(
          line,
          rng.pick(["parentId", "targetId", "firstKeptEntryId", "fromId"]),
          `dead${rng.int(0xffff).toString(16).padStart(4, "0")}`,
        ),
      );
    case "unknown-type":
      return one(
        withTopLevel(
          line,
          "type",
          rng.pick(["x-unknown", "session", "message", "compaction", "label", "", "MESSAGE", "context_edit"]),
        ),
      );
    case "split-line": {
      const at = rng.between(1, Math.max(1, bytes.length - 1));
      return { kind, lines: [bytes.subarray(0, at), bytes.subarray(at)] };
    }
    case "control-char":
      return one(
        insertAt(bytes, rng, Buffer.from([rng.pick([0x00, 0x01, 0x08, 0x0d, 0x1b, 0x7f, 0x0b, 0x0c])])),
      );
    case "garbage":
      return one(Buffer.from(rng.pick(GARBAGE)));
    case "proto-key": {
      const key = rng.pick(["__proto__", "constructor", "prototype"]);
      return one(Buffer.from(`{"${key}":{"type":"message","polluted":true},${line.slice(1)}`));
    }
    case "deep-nesting": {
      const depth = rng.pick([100, 5_000, 50_000]);
      const nested = "[".repeat(depth) + "]".repeat(depth);
      return one(
        Buffer.from(`${line.slice(0, -1)},"${rng.pick(["details", "data", "extra", "content"])}":${nested}}`),
      );
    }
    case "duplicate-line":
      return {
        kind,
        lines: [bytes, rng.chance(0.5) ? bytes : withTopLevel(line, "timestamp", "2099-01-01T00:00:00.000Z")],
      };
    case "whitespace":
      return one(
        Buffer.from(rng.pick([` ${line}`, `${line}\r`, `\t${line} `, line.replace(/,/, " , "), ""])),
      );
  }
}
