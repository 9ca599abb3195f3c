// Helpers shared by make-goldens.mjs (run on pi's output) and the golden tests (run on Arbor's), so
// both sides are described the same way.
import { createHash } from "node:crypto";

/** JSON with sorted keys (undefined values dropped), so key order does not matter. */
export function canonicalJson(value) {
  if (value === null || typeof value !== "object") return JSON.stringify(value);
  if (Array.isArray(value))
    return `[${value.map((item) => (item === undefined ? "null" : canonicalJson(item))).join(",")}]`;
  const keys = Object.keys(value)
    .filter((key) => value[key] !== undefined)
    .sort();
  return `{${keys.map((key) => `${JSON.stringify(key)}:${canonicalJson(value[key])}`).join(",")}}`;
}

export function hashOf(value) {
  return createHash("sha1").update(canonicalJson(value)).digest("hex").slice(0, 16);
}

/**
 * Labels each message with the id of the projected entry it comes from ("id:role"), matching messages
 * in order against the projection (by canonical JSON). Unmatched messages get "?:role".
 */
export function labelMessages(messages, projectionEntries) {
  const flat = [];
  for (const entry of projectionEntries) {
    for (const message of entry.messages)
      flat.push({ id: entry.sourceEntry.id, json: canonicalJson(message) });
  }
  const labels = [];
  let position = 0;
  for (const message of messages) {
    const json = canonicalJson(message);
    let found = -1;
    for (let index = position; index < flat.length; index++) {
      if (flat[index].json === json) {
        found = index;
        break;
      }
    }
    if (found < 0) labels.push(`?:${message.role}`);
    else {
      labels.push(`${flat[found].id}:${message.role}`);
      position = found + 1;
    }
  }
  return labels;
}

export function fileOpsRecord(fileOps) {
  return {
    read: [...fileOps.read].sort(),
    written: [...fileOps.written].sort(),
    edited: [...fileOps.edited].sort(),
  };
}

export const KEEP_VALUES = [0, 1, 10, 50, 100, 300, 700, 1500, 3000, 8000, 20000, 1000000];
export const BRANCH_BUDGETS = [0, 10, 40, 100, 500, 2000];
