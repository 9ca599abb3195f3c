#!/usr/bin/env node
/**
 * README code is real code. Every TypeScript or JavaScript block in a README (the root one, each
 * package's, examples/) and in the user docs listed in DOCS must follow a marker naming the file it
 * shows, and must equal that file:
 *
 *     <!-- example: packages/session-store/examples/open-project-append-branch.ts -->
 *     ```ts
 *     …the file's content…
 *     ```
 *
 * The files are type-checked with their package (`pnpm typecheck`) and compiled and run against the
 * packed packages by the consumer check. The install block of a package README (```bash with
 * `npm install`) must name every package its examples need (SDKs included).
 *
 *   node scripts/readme-examples.mjs          check (CI); exits 1 listing what differs
 *   node scripts/readme-examples.mjs --write  copy each marked file into its block
 */
import fs from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";

const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const CODE_LANGUAGES = new Set(["ts", "typescript", "tsx", "js", "javascript", "mjs", "cjs"]);
const MARKER = /^<!-- example: (\S+) -->$/;
/** User-facing pages outside READMEs whose code blocks are held to the same rule. */
const DOCS = ["docs/extensions/custom-compaction.md"];
/** Packages an entry point needs at run time besides its own package (optional peers). */
const PEERS_OF_ENTRY = {
  "@arbor/providers/anthropic": ["@anthropic-ai/sdk"],
  "@arbor/providers/openai": ["openai"],
  "@arbor/compaction/tiktoken": ["js-tiktoken"],
};

/** The markdown files checked, relative to the repository root. */
export function checkedFiles(root = repoRoot) {
  const files = ["README.md", "examples/README.md", ...DOCS];
  for (const dir of fs.readdirSync(path.join(root, "packages")).sort())
    files.push(`packages/${dir}/README.md`);
  return files.filter((file) => fs.existsSync(path.join(root, file)));
}

/** Bare package names a source file imports (`@scope/name` or `name`), subpaths kept. */
export function importedSpecifiers(source) {
  const found = new Set();
  for (const match of source.matchAll(/(?:^|\n)\s*(?:import|export)[^'"]*?from\s*["']([^"']+)["']/g)) {
    const specifier = match[1];
    if (!specifier.startsWith(".") && !specifier.startsWith("node:")) found.add(specifier);
  }
  return [...found];
}

function packageNameOf(specifier) {
  const parts = specifier.split("/");
  return specifier.startsWith("@") ? parts.slice(0, 2).join("/") : parts[0];
}

/** Checks (or rewrites) one markdown file. Returns the problems found. */
export function processMarkdown(relative, { root = repoRoot, write = false } = {}) {
  const file = path.join(root, relative);
  const lines = fs.readFileSync(file, "utf8").split("\n");
  const problems = [];
  const out = [];
  const examples = [];
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i] ?? "";
    const fence = /^```(\w*)\s*$/.exec(line);
    if (!fence) {
      out.push(line);
      continue;
    }
    let end = i + 1;
    while (end < lines.length && lines[end] !== "```") end++;
    const body = lines.slice(i + 1, end);
    const language = fence[1] ?? "";
    if (!CODE_LANGUAGES.has(language)) {
      out.push(...lines.slice(i, end + 1));
      i = end;
      continue;
    }
    const marker = MARKER.exec(out.at(-1) ?? "") ?? MARKER.exec(out.at(-2) ?? "");
    if (!marker) {
      problems.push(
        `${relative}:${i + 1}: a \`\`\`${language} block without an <!-- example: path --> marker naming its file`,
      );
      out.push(...lines.slice(i, end + 1));
      i = end;
      continue;
    }
    const target = path.join(root, marker[1]);
    if (!fs.existsSync(target)) {
      problems.push(`${relative}:${i + 1}: example file ${marker[1]} does not exist`);
      out.push(...lines.slice(i, end + 1));
      i = end;
      continue;
    }
    const content = fs.readFileSync(target, "utf8").replace(/\n$/, "");
    examples.push(content);
    if (body.join("\n") !== content) {
      problems.push(`${relative}:${i + 1}: the block differs from ${marker[1]}`);
    }
    out.push(line, ...content.split("\n"), "```");
    i = end;
  }
  if (relative.startsWith("packages/") && examples.length > 0) {
    const own = JSON.parse(fs.readFileSync(path.join(path.dirname(file), "package.json"), "utf8")).name;
    const text = lines.join("\n");
    const install = /```bash\n([^`]*npm install[^`]*)```/.exec(text)?.[1] ?? "";
    const needed = new Set();
    for (const source of examples) {
      for (const specifier of importedSpecifiers(source)) {
        needed.add(packageNameOf(specifier));
        for (const peer of PEERS_OF_ENTRY[specifier] ?? []) needed.add(peer);
      }
    }
    needed.add(own);
    const installed = new Set(install.split(/\s+/).map((word) => word.replace(/@[^@/]*$/, "")));
    for (const name of [...needed].sort()) {
      if (!installed.has(name))
        problems.push(`${relative}: the npm install line does not name ${name}, which its example needs`);
    }
  }
  if (write) fs.writeFileSync(file, out.join("\n"));
  return problems;
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const write = process.argv.includes("--write");
  const problems = checkedFiles().flatMap((file) => processMarkdown(file, { write }));
  const remaining = write ? checkedFiles().flatMap((file) => processMarkdown(file)) : problems;
  if (remaining.length > 0) {
    console.error(remaining.join("\n"));
    console.error(
      "\nREADME code blocks come from files: `pnpm readme:write` copies them in (see scripts/readme-examples.mjs).",
    );
    process.exit(1);
  }
  console.log(`readme examples: every code block in ${checkedFiles().length} files matches its example file`);
}
