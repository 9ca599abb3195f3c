import fs from "node:fs";
import path from "node:path";

/** A parsed JSONL line, inspected loosely by the tests. */
// biome-ignore lint/suspicious/noExplicitAny: parsed JSONL entries are inspected loosely
export type JsonlLine = Record<string, any>;

/** Every line of a JSONL session file, parsed, header included. */
export function readJsonlLines(file: string): JsonlLine[] {
  return fs
    .readFileSync(file, "utf8")
    .trimEnd()
    .split("\n")
    .map((line) => JSON.parse(line));
}

/** The last line of a JSONL session file, parsed. */
export function readLastJsonlLine(file: string): JsonlLine {
  return readJsonlLines(file).at(-1) as JsonlLine;
}

/** The session files (`*.jsonl`) the CLI wrote under `<arborHome>/sessions/<slug>/`. */
export function listSessionFiles(arborHome: string): string[] {
  const root = path.join(arborHome, "sessions");
  if (!fs.existsSync(root)) return [];
  return fs.readdirSync(root).flatMap((slug) =>
    fs
      .readdirSync(path.join(root, slug))
      .filter((name) => name.endsWith(".jsonl"))
      .map((name) => path.join(root, slug, name)),
  );
}
