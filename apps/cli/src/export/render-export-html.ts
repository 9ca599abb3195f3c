import { createHash } from "node:crypto";
import { sanitizeTerminalText } from "../format/sanitize-terminal-text";
import type { ExportHead } from "./build-export-data";
import type { ExportData, ExportEntry } from "./export-data";
import { EXPORT_PAGE_STYLES } from "./export-page-styles";
import { escapeHtml, jsonForHtmlScript } from "./json-for-html-script";

function sha256(text: string): string {
  return `'sha256-${createHash("sha256").update(text, "utf8").digest("base64")}'`;
}

/**
 * The self-contained HTML page of an export, in parts (written one after the other): inline styles, the session data as JSON in
 * `<script type="application/json" id="arbor-data">` and the entries in chunks after it (escaped by `jsonForHtmlScript`, so no string
 * of the session can end the element), and the viewer `script`. A Content-Security-Policy allows only
 * that style and that script (by hash) and `data:` images: the page loads nothing from the network
 * and runs no other script, even if some content were to slip through as markup. `chart` (inline SVG,
 * see `renderUsageChart`) is shown under the header when given. Pure.
 *
 * @throws Error when `script` contains `</script` or `<!--` (it could not be inlined safely).
 */
export function* renderExportHtmlParts(
  data: ExportHead,
  chunks: Iterable<readonly ExportEntry[]>,
  script: string,
  chart = "",
): Generator<string> {
  if (/<\/script|<!--/i.test(script)) {
    throw new Error("renderExportHtml: the viewer script cannot be inlined (it contains </script or <!--)");
  }
  const title = escapeHtml(
    sanitizeTerminalText(`${data.session.name ?? `Session ${data.session.id}`} · arbor export`).replace(
      /\s+/g,
      " ",
    ),
  );
  const csp = [
    "default-src 'none'",
    `style-src ${sha256(EXPORT_PAGE_STYLES)}`,
    `script-src ${sha256(script)}`,
    "img-src data:",
    "base-uri 'none'",
    "form-action 'none'",
  ].join("; ");
  yield `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta http-equiv="Content-Security-Policy" content="${escapeHtml(csp)}">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="generator" content="arbor ${escapeHtml(data.session.arborVersion)}">
<title>${title}</title>
<style>${EXPORT_PAGE_STYLES}</style>
</head>
<body data-state="loading">
<header id="header" class="page-head"></header>
${chart === "" ? "" : `<details class="usage-chart"><summary>Context and cost per request</summary>${chart}<p>Context tokens and cumulative cost per request of the exported path, from the usage its answers recorded (under the context policy the session ran with; <code>arbor replay</code> measures others).</p></details>\n`}<main class="layout">
<section class="tree-pane">
<div class="pane-head"><h2>Session tree</h2><div id="tree-controls" class="controls"></div></div>
<div class="legend"><span class="lg on-path">selected path</span><span class="lg active-path">exported path</span><span class="lg replaced">replaced by a compaction</span><span class="lg k-compaction">◆ compaction</span><span class="lg k-branch_summary">↩ branch summary</span><span class="lg k-context_edit">✎ context edit</span></div>
<div id="tree" class="tree" tabindex="0"></div>
</section>
<section id="context" class="context-pane"></section>
</main>
<noscript><p class="noscript">This export needs JavaScript to show the session.</p></noscript>
<script type="application/json" id="arbor-data">${jsonForHtmlScript({ ...data, entries: [] })}</script>
`;
  // Many small JSON elements: browsers build one huge script text very slowly (minutes for 100 MB
  // in Chromium), many small ones in linear time.
  for (const chunk of chunks) {
    yield `<script type="application/json" class="arbor-entries">${jsonForHtmlScript(chunk)}</script>\n`;
  }
  yield `<script>${script}</script>
</body>
</html>
`;
}

/** Entries per `<script type="application/json" class="arbor-entries">` element. */
export const EXPORT_ENTRIES_PER_CHUNK = 500;

/** {@link renderExportHtmlParts} of a whole {@link ExportData}, as one string. Pure. */
export function renderExportHtml(data: ExportData, script: string): string {
  const { entries, ...head } = data;
  const chunks: ExportEntry[][] = [];
  for (let start = 0; start < entries.length; start += EXPORT_ENTRIES_PER_CHUNK) {
    chunks.push(entries.slice(start, start + EXPORT_ENTRIES_PER_CHUNK));
  }
  return [...renderExportHtmlParts(head, chunks, script)].join("");
}
