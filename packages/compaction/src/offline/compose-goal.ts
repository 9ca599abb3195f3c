import { squash } from "./text-utils";

const FOLLOW_UP = "Follow-up: ";
const CURRENT = "Current request (in progress): ";
const LATEST = "Latest request: ";
/** Labels this summarizer writes (and the older "Later request:"), read back from an earlier checkpoint. */
const OWN_LABEL = /^(Follow-up|Later request|Latest request|Current request(?: \(in progress\))?): /;

type Role = "plain" | "follow" | "latest" | "current";

interface GoalItem {
  text: string;
  role: Role;
}

function sameText(a: string, b: string): boolean {
  return squash(a).toLowerCase() === squash(b).toLowerCase();
}

function roleOfLabel(label: string): Role {
  if (label.startsWith("Current")) return "current";
  if (label === "Latest request") return "latest";
  return "follow";
}

function render(item: GoalItem): string {
  switch (item.role) {
    case "follow":
      return `${FOLLOW_UP}${item.text}`;
    case "latest":
      return `${LATEST}${item.text}`;
    case "current":
      return `${CURRENT}${item.text}`;
    default:
      return item.text;
  }
}

/**
 * The Goal section: the user's tasks in the order they were asked. An earlier checkpoint's goal comes
 * first (its lines kept, only this summarizer's own labels re-applied); then this range's requests.
 * The first task is unlabelled, later ones are `Follow-up:`, and the newest is marked
 * `Current request (in progress):` while `openRequest` is it, else `Latest request:`. With more than
 * `max` items the first is kept with the newest `max − 1`. Pure; deterministic.
 */
export function composeGoal(
  previousGoal: readonly string[],
  requests: readonly string[],
  openRequest: string | undefined,
  max = 6,
): string[] {
  const items: GoalItem[] = [];
  for (const line of previousGoal) {
    const label = OWN_LABEL.exec(line);
    const text = label ? line.slice(label[0].length) : line;
    if (items.some((item) => sameText(item.text, text))) continue;
    const role = label ? roleOfLabel(label[1] ?? "") : "plain";
    items.push({ text, role: requests.length > 0 && role !== "plain" ? "follow" : role });
  }
  for (const request of requests) {
    if (items.some((item) => sameText(item.text, request))) continue;
    items.push({ text: request, role: items.length === 0 ? "plain" : "follow" });
  }
  const last = items.at(-1);
  if (last !== undefined && items.length > 1 && (last.role !== "plain" || requests.length > 0)) {
    last.role = openRequest !== undefined && sameText(openRequest, last.text) ? "current" : "latest";
  }
  const kept = items.length > max ? [items[0] as GoalItem, ...items.slice(items.length - (max - 1))] : items;
  return kept.map(render);
}
