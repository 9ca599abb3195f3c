import { describe, expect, it } from "vitest";
import type { ExportData } from "./export-data";
import { escapeHtml, jsonForHtmlScript } from "./json-for-html-script";
import { renderExportHtml } from "./render-export-html";
import { renderExportMarkdown } from "./render-export-markdown";

const HOSTILE = [
  "</script><script>window.pwned=1</script>",
  "</SCRIPT >",
  "<!-- <script>",
  '<img src=x onerror="window.pwned=2">',
  "\u2028\u2029 & &amp; > \u001b[31mred\u001b[0m \u202e",
];

function sessionWith(texts: string[]): ExportData {
  return {
    format: 1,
    session: {
      id: "</title><script>x</script>",
      name: texts[0] ?? null,
      file: "s.jsonl",
      cwd: null,
      entryCount: texts.length,
      model: null,
      thinkingLevel: null,
      exportedAt: "2026-01-01T00:00:00.000Z",
      arborVersion: "test",
    },
    activeLeaf: texts.length - 1,
    fileLeaf: texts.length - 1,
    activeContextTokens: 1,
    clipChars: 100,
    entries: texts.map((text, index) => ({
      id: `e${index}`,
      parent: index - 1,
      type: "message",
      kind: "user",
      time: "",
      label: text,
      preview: text,
      messages: [{ role: "user", blocks: [{ type: "text", text }], tokens: 1 }],
      tokens: 1,
    })),
  };
}

describe("jsonForHtmlScript", () => {
  it("leaves no < in the text and parses back to the same value", () => {
    const value = { texts: HOSTILE, nested: [{ a: "</script>" }] };
    const json = jsonForHtmlScript(value);
    expect(json).not.toContain("<");
    expect(JSON.parse(json)).toEqual(value);
  });
});

describe("escapeHtml", () => {
  it("escapes the five markup characters", () => {
    expect(escapeHtml(`<a href="x" title='y'>&</a>`)).toBe(
      "&lt;a href=&quot;x&quot; title=&#39;y&#39;&gt;&amp;&lt;/a&gt;",
    );
  });
});

describe("renderExportHtml", () => {
  it("keeps hostile strings inside the data elements", () => {
    const html = renderExportHtml(sessionWith(HOSTILE), "console.log(1)");
    // Exactly the page's own script elements: the head data, one chunk of entries and the viewer.
    expect(html.match(/<script\b/gi)).toHaveLength(3);
    expect(html.match(/<\/script/gi)).toHaveLength(3);
    expect(html).not.toContain("<!--");
    expect(html).not.toContain("<img");
    expect(html).toContain("<title>&lt;/script&gt;&lt;script&gt;");
    const data = /<script type="application\/json" class="arbor-entries">([^<]*)<\/script>/.exec(html)?.[1];
    expect(JSON.parse(data as string).map((entry: { preview: string }) => entry.preview)).toEqual(HOSTILE);
  });

  it("allows only its own style and script (by hash) and loads nothing", () => {
    const html = renderExportHtml(sessionWith(["hi"]), "console.log(1)");
    const csp = /http-equiv="Content-Security-Policy" content="([^"]*)"/.exec(html)?.[1] ?? "";
    expect(csp).toContain("default-src &#39;none&#39;");
    expect(csp).toMatch(/script-src &#39;sha256-[A-Za-z0-9+/=]+&#39;/);
    expect(html).not.toMatch(/\b(?:src|href)=/);
  });

  it("refuses a viewer script that could end its element", () => {
    expect(() => renderExportHtml(sessionWith(["hi"]), "a('</script>')")).toThrow(/cannot be inlined/);
  });
});

describe("renderExportMarkdown", () => {
  it("writes the path as text with no raw HTML, no control characters and closed fences", () => {
    const data = sessionWith([...HOSTILE, "```js\nopen fence"]);
    const markdown = renderExportMarkdown(
      data,
      data.entries.map((_, index) => index),
    );
    expect(markdown).not.toMatch(/<(?:script|img|!--)/i);
    expect(markdown).toContain("&lt;/script>&lt;script>window.pwned=1&lt;/script>");
    expect(markdown).not.toContain("\u001b");
    expect(markdown).not.toContain("\u202e");
    expect(markdown.match(/^```/gm)?.length).toBe(2);
    expect(markdown.indexOf("_`e0`")).toBeLessThan(markdown.indexOf("_`e4`"));
  });
});
