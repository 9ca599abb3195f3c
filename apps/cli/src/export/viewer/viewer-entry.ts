/// <reference lib="dom" />
import { startViewer } from "./viewer-main";

// The page script of an HTML export: bundled on its own (dist/export-viewer.js) and inlined by
// renderExportHtml. It starts once the document has been parsed (the script is at the end of body).
startViewer();
