import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { gunzipSync } from "node:zlib";
import { createSessionStore, openSessionStore } from "@arbor/session-store";
import { type BrowserContext, chromium, type Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { assertCliBuilt, REPO_ROOT } from "./helpers/cli-paths";
import { isolatedEnv, runCliProcess } from "./helpers/run-cli-process";

// A real browser (Debian's chromium, driven by playwright-core) opens the exported pages offline.
// CI installs chromium when it is missing (.ci/run); without it this test fails, it never skips.
const CHROMIUM = "/usr/bin/chromium";
const EXAMPLE = path.join(REPO_ROOT, "examples/todo-api-pagination.jsonl");
const PI_SESSION = "/work/shared/pi-sessions/pi-mono-before-compaction.jsonl.gz";

let dir: string;
let env: NodeJS.ProcessEnv;
let browser: BrowserContext;

/** What the page did besides rendering: requests, errors, console errors. */
interface Watch {
  requests: string[];
  errors: string[];
}

beforeAll(async () => {
  assertCliBuilt();
  if (!fs.existsSync(CHROMIUM)) {
    throw new Error(
      `${CHROMIUM} is missing: apt-get update && apt-get install -y chromium (CI does it in .ci/run)`,
    );
  }
  dir = fs.mkdtempSync(path.join(os.tmpdir(), "arbor-export-html-"));
  env = isolatedEnv({ ARBOR_HOME: path.join(dir, "home"), HOME: dir });
  browser = await chromium.launchPersistentContext(path.join(dir, "profile"), {
    executablePath: CHROMIUM,
    headless: true,
    args: [
      "--headless",
      "--no-sandbox",
      "--disable-gpu",
      "--no-first-run",
      "--disable-background-networking",
      "--disable-component-update",
      "--disable-sync",
    ],
    viewport: { width: 1400, height: 900 },
  });
}, 60_000);
afterAll(async () => {
  await browser?.close();
  // The screenshots stay for a look when ARBOR_KEEP_EXPORT_TEST is set.
  if (dir && !process.env.ARBOR_KEEP_EXPORT_TEST) fs.rmSync(dir, { recursive: true, force: true });
});

async function exportHtml(session: string, name: string, ...flags: string[]): Promise<string> {
  const out = path.join(dir, name);
  const run = await runCliProcess(["export", session, "--html", "-o", out, ...flags], { env, cwd: dir });
  expect(run.stderr).toBe("");
  expect(run.code).toBe(0);
  expect(run.stdout).toMatch(/^Exported \d+ entries to /);
  return out;
}

async function open(file: string): Promise<{ page: Page; watch: Watch }> {
  const page = await browser.newPage();
  const watch: Watch = { requests: [], errors: [] };
  page.on("request", (request) => watch.requests.push(request.url()));
  page.on("pageerror", (error) => watch.errors.push(error.message));
  page.on("console", (message) => {
    if (message.type() === "error") watch.errors.push(message.text());
  });
  await page.goto(`file://${file}`);
  await page.waitForSelector("body[data-state=ready]", { timeout: 30_000 });
  return { page, watch };
}

function expectOffline(file: string, watch: Watch): void {
  expect(watch.requests).toEqual([`file://${file}`]);
  expect(watch.errors).toEqual([]);
}

/** Scrolls the virtual tree until the row of `id` exists, then returns it. */
async function treeRow(page: Page, id: string) {
  const row = page.locator(`.row[data-id="${id}"]`);
  for (let step = 0; (await row.count()) === 0; step++) {
    const more = await page.evaluate((top) => {
      const tree = document.getElementById("tree") as HTMLElement;
      tree.scrollTop = top;
      return top < tree.scrollHeight;
    }, step * 600);
    if (!more) throw new Error(`no tree row for ${id}`);
    await page.waitForTimeout(50);
  }
  return row;
}

// A real browser on a loaded two-core machine (the whole suite running beside it) took over 30 s for
// the pi session once; the default test timeout is for the CLI's own commands.
describe("arbor export --html in a real browser", { timeout: 120_000 }, () => {
  it("shows the example's tree, its label and branch summary, and another leaf's projection on click", async () => {
    const file = await exportHtml(EXAMPLE, "example.html");
    const { page, watch } = await open(file);
    const store = openSessionStore(EXAMPLE, { storage: { readOnly: true } });
    try {
      const expected = store.getProjection().entries.map((entry) => entry.sourceEntry.id);
      const shown = await page
        .locator(".context-list > [data-entry]")
        .evaluateAll((nodes) => nodes.map((node) => (node as HTMLElement).dataset.entry));
      expect(shown).toEqual(expected);
      expect(await page.locator(".context-list .branch-summary").count()).toBe(1);
      expect(await page.locator(".row.selected").getAttribute("data-id")).toBe(store.leafId);
      expect(await page.locator(".row.on-path").count()).toBeGreaterThan(10);
      expect(await page.locator("#header").innerText()).toContain("todo-api: paginate GET /todos");
      expect(await (await treeRow(page, "2238dc3f")).locator(".chip").innerText()).toBe("offset-pagination");
      await page.screenshot({ path: path.join(dir, "example.png") });

      // The other leaf of the example: the end of the abandoned branch.
      const parents = new Set(store.getEntries().map((entry) => entry.parentId));
      const other = store.getEntries().find((entry) => !parents.has(entry.id) && entry.id !== store.leafId);
      expect(other).toBeDefined();
      const otherId = other?.id as string;
      await (await treeRow(page, otherId)).click();
      await page.waitForSelector(`.row.selected[data-id="${otherId}"]`);
      const otherShown = await page
        .locator(".context-list > [data-entry]")
        .evaluateAll((nodes) => nodes.map((node) => (node as HTMLElement).dataset.entry));
      expect(otherShown).toEqual(store.getProjection(otherId).entries.map((entry) => entry.sourceEntry.id));
      expect(await page.locator(".context-head h2").innerText()).toContain(otherId);
      expect(await page.locator(".context-list .branch-summary").count()).toBe(0);
      await page.screenshot({ path: path.join(dir, "example-other-leaf.png") });
      expectOffline(file, watch);
    } finally {
      store.close();
      await page.close();
    }
  });

  it("shows a real pi session's compaction boundary with its summary and the range it replaced", async () => {
    const session = path.join(dir, "pi.jsonl");
    fs.writeFileSync(session, gunzipSync(fs.readFileSync(PI_SESSION)));
    const file = await exportHtml(session, "pi.html");
    const { page, watch } = await open(file);
    const store = openSessionStore(session, { storage: { readOnly: true } });
    try {
      const branch = store.getBranch();
      const compactions = branch.filter((entry) => entry.type === "compaction");
      const latest = compactions.at(-1);
      if (latest?.type !== "compaction") throw new Error("the pi session has no compaction on its branch");
      const firstKept = branch.findIndex((entry) => entry.id === latest.firstKeptEntryId);
      const boundary = page.locator(".boundary");
      expect(await boundary.count()).toBe(1);
      expect(await boundary.locator(".range").innerText()).toContain(
        `Replaces ${firstKept.toLocaleString("en-US")} entries`,
      );
      expect(await boundary.locator("pre.summary").innerText()).toBe(
        latest.summary.trim() === "" ? "" : latest.summary,
      );
      await boundary.locator("details.replaced > summary").click();
      // The list is built on the details' toggle event, which fires after the click returns.
      await boundary.locator(".replaced-list").waitFor();
      expect(await boundary.locator(".replaced-list > *").count()).toBeGreaterThan(100);
      // Clicking the older compaction in the tree shows the context at that point, with its own boundary.
      const older = compactions[0]?.id as string;
      // The virtual tree redraws its rows on the next frame after a scroll (Playwright's scroll into
      // view included), so under load a click can land while the row is being replaced: click again
      // until the row shows as selected (selecting is idempotent), for up to a minute.
      for (let attempt = 1; ; attempt++) {
        await (await treeRow(page, older)).click({ timeout: 10_000 });
        const selected = await page
          .waitForSelector(`.row.selected[data-id="${older}"]`, { timeout: 3_000 })
          .then(
            () => true,
            () => false,
          );
        if (selected) break;
        if (attempt === 10)
          throw new Error(`the row of ${older} never showed as selected after ${attempt} clicks`);
      }
      expect(await page.locator(".boundary .msg-head .idlink").first().innerText()).toBe(older.slice(0, 8));
      await page.screenshot({ path: path.join(dir, "pi.png") });
      // The context/cost chart of the exported path: one point per answer with recorded usage.
      const answers = branch.filter(
        (entry) =>
          entry.type === "message" &&
          entry.message.role === "assistant" &&
          (entry.message.usage?.input ?? 0) +
            (entry.message.usage?.cacheRead ?? 0) +
            (entry.message.usage?.cacheWrite ?? 0) >
            0,
      ).length;
      await page.locator("details.usage-chart > summary").click();
      const chart = page.locator("details.usage-chart svg");
      expect(await chart.isVisible()).toBe(true);
      const points = await chart
        .locator("polyline")
        .evaluateAll((nodes) => nodes.map((node) => (node.getAttribute("points") ?? "").split(" ").length));
      expect(points).toEqual([answers, answers]);
      await page.screenshot({ path: path.join(dir, "pi-chart.png") });
      expectOffline(file, watch);
    } finally {
      store.close();
      await page.close();
    }
  });

  it("shows hostile session text as text: no markup, no script, no request", async () => {
    const session = path.join(dir, "hostile.jsonl");
    const store = createSessionStore({ path: session, cwd: dir });
    const evil = [
      "</script><script>window.pwned = 1</script>",
      '<img src="http://127.0.0.1:9/x.png" onerror="window.pwned = 2">',
      "<!-- <script>window.pwned = 3</script>",
    ];
    store.appendSessionInfo(`</title><script>window.pwned = 4</script>`);
    const user = store.appendMessage({ role: "user", content: evil.join("\n"), timestamp: 1 });
    store.appendLabelChange(user.id, '<b onclick="window.pwned = 5">label</b>');
    store.close();
    const file = await exportHtml(session, "hostile.html");
    const { page, watch } = await open(file);
    try {
      expect(await page.evaluate(() => (window as { pwned?: number }).pwned)).toBeUndefined();
      expect(await page.locator("img, b, iframe").count()).toBe(0);
      const text = await page.locator(".context-list").innerText();
      for (const line of evil) expect(text).toContain(line);
      expect(await page.title()).toContain("</title><script>");
      expect(await page.locator(".row .chip").innerText()).toBe('<b onclick="window.pwned = 5">label</b>');
      expectOffline(file, watch);
    } finally {
      await page.close();
    }
  });
});
