import type { SessionEntry } from "@arbor/session-store";
import { escapeHtml } from "./json-for-html-script";

/** One request of a session's path: its prompt size and the cost so far. */
export interface UsagePoint {
  contextTokens: number;
  cumulativeCostUsd: number;
}

/**
 * The requests of a path as its answers recorded them: for each assistant message with usage, the
 * prompt it was answered from (input + cache read + cache write tokens) and the cumulative recorded
 * cost (`usage.cost.total`). Answers without usage (errors, aborted requests) are left out. Pure.
 */
export function usageSeries(branch: Iterable<SessionEntry>): UsagePoint[] {
  const points: UsagePoint[] = [];
  let cost = 0;
  for (const entry of branch) {
    if (entry.type !== "message" || entry.message.role !== "assistant") continue;
    const usage = entry.message.usage;
    const contextTokens = (usage?.input ?? 0) + (usage?.cacheRead ?? 0) + (usage?.cacheWrite ?? 0);
    if (contextTokens <= 0) continue;
    cost += Number.isFinite(usage?.cost?.total) ? (usage?.cost?.total ?? 0) : 0;
    points.push({ contextTokens, cumulativeCostUsd: cost });
  }
  return points;
}

const WIDTH = 880;
const HEIGHT = 290;
const PANEL = { width: 380, height: 220, top: 34 };

function niceMax(value: number): number {
  if (value <= 0) return 1;
  const power = 10 ** Math.floor(Math.log10(value));
  for (const step of [1, 2, 2.5, 5, 10]) if (value <= step * power) return step * power;
  return 10 * power;
}

function tick(value: number, dollars: boolean): string {
  if (dollars) return `$${value < 10 ? value.toFixed(2) : value.toFixed(0)}`;
  return value >= 1000 ? `${Math.round(value / 1000)}k` : String(Math.round(value));
}

function panel(x0: number, title: string, values: number[], dollars: boolean): string {
  const maxX = Math.max(1, values.length - 1);
  // A loop, not Math.max(...values): a path of a million entries has too many points to spread.
  let top = 0;
  for (const value of values) if (value > top) top = value;
  const maxY = niceMax(top);
  const px = (i: number) => x0 + (i / maxX) * PANEL.width;
  const py = (v: number) => PANEL.top + PANEL.height - (v / maxY) * PANEL.height;
  const parts = [
    `<text x="${x0}" y="${PANEL.top - 10}" font-size="13" font-weight="bold">${escapeHtml(title)}</text>`,
    `<rect x="${x0}" y="${PANEL.top}" width="${PANEL.width}" height="${PANEL.height}" fill="none" stroke="#bbb"/>`,
  ];
  for (let k = 0; k <= 4; k++) {
    const y = py((maxY * k) / 4);
    parts.push(`<line x1="${x0}" x2="${x0 + PANEL.width}" y1="${y}" y2="${y}" stroke="#eee"/>`);
    parts.push(
      `<text x="${x0 - 6}" y="${y + 4}" font-size="10" text-anchor="end">${tick((maxY * k) / 4, dollars)}</text>`,
    );
  }
  parts.push(
    `<text x="${x0 + PANEL.width / 2}" y="${PANEL.top + PANEL.height + 18}" font-size="10" text-anchor="middle">request (0 … ${maxX})</text>`,
  );
  const step = Math.max(1, Math.floor(values.length / 600));
  const coords: string[] = [];
  for (let i = 0; i < values.length; i += step)
    coords.push(`${px(i).toFixed(1)},${py(values[i] ?? 0).toFixed(1)}`);
  parts.push(`<polyline fill="none" stroke="#d62728" stroke-width="1.4" points="${coords.join(" ")}"/>`);
  return parts.join("\n");
}

/**
 * The chart of `docs/context-economics.md` for one session as it ran: context tokens per request
 * (left) and cumulative cost (right), as inline SVG (attributes only: the export's
 * Content-Security-Policy allows no inline style). Empty string for a path without usage. Pure.
 */
export function renderUsageChart(points: readonly UsagePoint[], title: string): string {
  if (points.length === 0) return "";
  return `<svg xmlns="http://www.w3.org/2000/svg" width="${WIDTH}" height="${HEIGHT}" viewBox="0 0 ${WIDTH} ${HEIGHT}" font-family="sans-serif" role="img" aria-label="${escapeHtml(title)}">
<title>${escapeHtml(title)}</title>
<rect width="100%" height="100%" fill="white"/>
${panel(
  60,
  "context tokens per request",
  points.map((p) => p.contextTokens),
  false,
)}
${panel(
  500,
  "cumulative cost (USD)",
  points.map((p) => p.cumulativeCostUsd),
  true,
)}
</svg>`;
}
