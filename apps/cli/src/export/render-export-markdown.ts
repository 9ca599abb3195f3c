import type { ExportHead } from "./build-export-data";
import type { ExportBlock, ExportData, ExportEntry, ExportMessage } from "./export-data";
import { fencedBlock, inlineText, neutralizeMarkdown } from "./neutralize-markdown";

const TITLES: Record<string, string> = {
  user: "User",
  assistant: "Assistant",
  toolResult: "Tool result",
  system: "System",
  custom: "Custom message",
  bashExecution: "Shell",
  branchSummary: "Branch summary",
  compactionSummary: "Compaction summary",
};

function count(value: number): string {
  return Math.round(value).toLocaleString("en-US");
}

function blockText(block: ExportBlock, role: string): string {
  switch (block.type) {
    case "text":
      return role === "user" || role === "assistant" || role === "custom"
        ? neutralizeMarkdown(block.text)
        : fencedBlock(block.text);
    case "thinking":
      return `<details><summary>Thinking</summary>\n\n${fencedBlock(block.text)}\n\n</details>`;
    case "toolCall":
      return `**→ ${inlineText(block.name)}** (\`${inlineText(block.id).replace(/`/g, "")}\`)\n\n${fencedBlock(block.args, "json")}`;
    case "image":
      return `_[image: ${inlineText(block.mimeType || "unknown type")}, ${count(block.bytes)} bytes, not exported]_`;
  }
}

function messageSection(entry: ExportEntry, message: ExportMessage): string {
  let title = TITLES[message.role] ?? inlineText(message.role);
  if (message.role === "toolResult")
    title = `Tool result · ${inlineText(message.toolName ?? "tool")}${message.isError ? " (error)" : ""}`;
  if (message.role === "custom" && message.customType)
    title = `Custom message · ${inlineText(message.customType)}`;
  const facts = [`\`${inlineText(entry.id).replace(/`/g, "")}\``, inlineText(entry.time)];
  if (message.model) facts.push(inlineText(message.model));
  facts.push(`~${count(message.tokens)} tokens`);
  const body = message.blocks.map((block) => blockText(block, message.role)).join("\n\n");
  return `### ${title}\n\n_${facts.filter(Boolean).join(" · ")}_\n\n${body || "_(no content)_"}`;
}

function fileList(title: string, files: readonly string[]): string {
  return files.length === 0
    ? ""
    : `\n\n**${title}:** ${files.map((file) => `\`${inlineText(file).replace(/`/g, "")}\``).join(", ")}`;
}

function entrySection(entry: ExportEntry): string {
  const id = `\`${inlineText(entry.id).replace(/`/g, "")}\``;
  const label = entry.label ? `\n\n_label: ${inlineText(entry.label)}_` : "";
  if (entry.compaction) {
    const c = entry.compaction;
    return `### ◆ Compaction · ${id}${label}\n\n_Everything before \`${inlineText(c.firstKeptId).replace(/`/g, "")}\` is replaced by this summary (about ${count(c.tokensBefore)} tokens before)._\n\n${neutralizeMarkdown(c.summary)}${fileList("Read files", c.readFiles)}${fileList("Modified files", c.modifiedFiles)}`;
  }
  if (entry.branchSummary) {
    const b = entry.branchSummary;
    return `### ↩ Branch summary · ${id}${label}\n\n_Summary of the branch left at \`${inlineText(b.fromId).replace(/`/g, "")}\`._\n\n${neutralizeMarkdown(b.summary)}${fileList("Read files", b.readFiles)}${fileList("Modified files", b.modifiedFiles)}`;
  }
  if (entry.edit) {
    const what = entry.edit.hides ? "hides" : "replaces the content of";
    return `_✎ context edit ${id}: ${what} \`${inlineText(entry.edit.targetId).replace(/`/g, "")}\` for the model_`;
  }
  if (entry.messages.length > 0) {
    return entry.messages.map((message) => messageSection(entry, message)).join("\n\n") + label;
  }
  return `_${inlineText(entry.kind)} ${id}: ${inlineText(entry.detail ?? entry.preview)}_`;
}

/** Text gathered before a part is handed on by {@link renderExportMarkdownParts}. */
const PART_CHARS = 1 << 20;

/**
 * The Markdown export: a header with the session's facts, then every entry of the path from the root
 * to `leaf` in order: messages as sections (user and assistant text as Markdown, tool output and
 * arguments in code fences), compactions and branch summaries with their summaries and files,
 * context edits and metadata as one-line notes. All session text is made inert (`neutralizeMarkdown`,
 * `fencedBlock`, `inlineText`). Pure.
 */
export function renderExportMarkdown(data: ExportData, path: readonly number[]): string {
  const leafId = data.entries[data.activeLeaf]?.id ?? null;
  const entries = path.map((index) => data.entries[index] as ExportEntry);
  return [...renderExportMarkdownParts(data, leafId, entries.length, entries)].join("");
}

/**
 * {@link renderExportMarkdown} as parts of about a megabyte each, from the path's entries as they
 * come (`path`: `pathLength` entries in order from the root, each made when it is asked for), so a
 * session of any size is exported without holding its path or its text. The parts joined are
 * `renderExportMarkdown`'s text.
 */
export function* renderExportMarkdownParts(
  head: ExportHead,
  leafId: string | null,
  pathLength: number,
  path: Iterable<ExportEntry>,
): Generator<string> {
  const session = head.session;
  const header = [
    `# ${inlineText(session.name ?? `Session ${session.id}`)}`,
    "",
    `- Session: \`${inlineText(session.id).replace(/`/g, "")}\` (${inlineText(session.file)})`,
    `- Path: ${count(pathLength)} of ${count(session.entryCount)} entries, to the leaf \`${inlineText(leafId ?? "(none)").replace(/`/g, "")}\``,
    session.model ? `- Model: ${inlineText(session.model)}` : "",
    head.activeContextTokens === null
      ? ""
      : `- Context at the leaf: about ${count(head.activeContextTokens)} tokens`,
    `- Exported ${inlineText(session.exportedAt)} by arbor ${inlineText(session.arborVersion)}`,
  ].filter((line, index) => index < 2 || line !== "");
  let part = `${header.join("\n")}\n\n---\n\n`;
  let first = true;
  for (const entry of path) {
    part += first ? entrySection(entry) : `\n\n${entrySection(entry)}`;
    first = false;
    if (part.length < PART_CHARS) continue;
    yield part;
    part = "";
  }
  yield `${part}\n`;
}
