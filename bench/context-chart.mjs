/**
 * One SVG chart per session for docs/context-economics.md: context size per request (left panel)
 * and cumulative cost (right panel), one line per policy. Plain SVG, no dependency.
 */

const COLORS = { pi: "#d62728", mask: "#1f77b4", "cache-aware": "#2ca02c" };
const WIDTH = 880;
const HEIGHT = 300;
const PANEL = { width: 380, height: 220, top: 40, left: [60, 500] };

const escapeXml = (text) =>
  String(text).replace(/[&<>"]/g, (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;" })[c]);

function niceMax(value) {
  if (value <= 0) return 1;
  const power = 10 ** Math.floor(Math.log10(value));
  for (const step of [1, 2, 2.5, 5, 10]) if (value <= step * power) return step * power;
  return 10 * power;
}

function formatTick(value, unit) {
  if (unit === "$") return `$${value < 10 ? value.toFixed(2) : value.toFixed(0)}`;
  return value >= 1000 ? `${Math.round(value / 1000)}k` : String(Math.round(value));
}

function panel(x0, title, series, pick, unit) {
  const maxX = Math.max(1, ...series.map((s) => s.points.length - 1));
  const maxY = niceMax(Math.max(0, ...series.flatMap((s) => s.points.map(pick))));
  const px = (i) => x0 + (i / maxX) * PANEL.width;
  const py = (v) => PANEL.top + PANEL.height - (v / maxY) * PANEL.height;
  const parts = [
    `<text x="${x0}" y="${PANEL.top - 12}" font-size="13" font-weight="bold">${escapeXml(title)}</text>`,
    `<rect x="${x0}" y="${PANEL.top}" width="${PANEL.width}" height="${PANEL.height}" fill="none" stroke="#bbb"/>`,
  ];
  for (let k = 0; k <= 4; k++) {
    const value = (maxY * k) / 4;
    const y = py(value);
    parts.push(`<line x1="${x0}" x2="${x0 + PANEL.width}" y1="${y}" y2="${y}" stroke="#eee"/>`);
    parts.push(
      `<text x="${x0 - 6}" y="${y + 4}" font-size="10" text-anchor="end">${formatTick(value, unit)}</text>`,
    );
  }
  parts.push(
    `<text x="${x0 + PANEL.width / 2}" y="${PANEL.top + PANEL.height + 18}" font-size="10" text-anchor="middle">request (0 … ${maxX})</text>`,
  );
  for (const s of series) {
    const step = Math.max(1, Math.floor(s.points.length / 600));
    const coords = [];
    for (let i = 0; i < s.points.length; i += step)
      coords.push(`${px(i).toFixed(1)},${py(pick(s.points[i])).toFixed(1)}`);
    parts.push(
      `<polyline fill="none" stroke="${COLORS[s.policy] ?? "#555"}" stroke-width="1.4" points="${coords.join(" ")}"/>`,
    );
  }
  return parts.join("\n");
}

/** The SVG text of one session's chart. `runs`: the replay reports of that session, one per policy. */
export function renderContextChart(title, runs) {
  const series = runs.map((run) => ({ policy: run.policy, points: run.series }));
  const legend = series
    .map(
      (s, i) =>
        `<rect x="${60 + i * 130}" y="${HEIGHT - 22}" width="12" height="12" fill="${COLORS[s.policy] ?? "#555"}"/>` +
        `<text x="${76 + i * 130}" y="${HEIGHT - 12}" font-size="11">${escapeXml(s.policy)}</text>`,
    )
    .join("\n");
  return `<svg xmlns="http://www.w3.org/2000/svg" width="${WIDTH}" height="${HEIGHT}" viewBox="0 0 ${WIDTH} ${HEIGHT}" font-family="sans-serif" role="img">
<title>${escapeXml(title)}: context tokens and cumulative cost per request, one line per policy</title>
<rect width="100%" height="100%" fill="white"/>
<text x="${WIDTH / 2}" y="16" font-size="13" text-anchor="middle">${escapeXml(title)}</text>
${panel(PANEL.left[0], "context tokens per request", series, (p) => p.contextTokens, "t")}
${panel(PANEL.left[1], "cumulative cost (USD)", series, (p) => p.cumulativeCostUsd, "$")}
${legend}
</svg>
`;
}
