import path from "node:path";
import { fileURLToPath } from "node:url";

const examples = path.resolve(
  path.dirname(fileURLToPath(import.meta.url)),
  "../../../../examples/extensions",
);

/** Absolute path of an example extension file in the repository's `examples/extensions/`. */
export function examplePath(name: string): string {
  return path.join(examples, name);
}
