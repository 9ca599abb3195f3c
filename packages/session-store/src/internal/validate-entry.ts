import type { z } from "zod";
import { entrySchemas } from "./entry-schemas";
import { isWellFormedEntry, isWellFormedHeader } from "./entry-shape-check";

/** The schema an entry is checked against: by type, and for messages by role. */
function schemaFor(entry: { type: string; message?: unknown }): z.ZodType {
  const {
    anyMessageEntrySchema,
    entrySchemas: typeSchemas,
    messageEntrySchemas,
    unknownEntrySchema,
  } = entrySchemas();
  if (entry.type !== "message") {
    return (
      (Object.hasOwn(typeSchemas, entry.type) ? typeSchemas[entry.type] : undefined) ?? unknownEntrySchema
    );
  }
  const role = (entry.message as { role?: unknown } | null | undefined)?.role;
  return (
    (typeof role === "string" && Object.hasOwn(messageEntrySchemas, role)
      ? messageEntrySchemas[role]
      : undefined) ?? anyMessageEntrySchema
  );
}

/**
 * zod says only "Invalid input" when no alternative of a union matches; name what each expected
 * ("expected string or array, received number").
 */
function describeIssue(issue: z.core.$ZodIssue): string {
  if (issue.code !== "invalid_union") return issue.message;
  const expected = new Set<string>();
  let received: string | undefined;
  for (const alternative of issue.errors) {
    for (const inner of alternative) {
      if (inner.code !== "invalid_type" || inner.path.length > 0) continue;
      expected.add(String(inner.expected));
      received ??= /received (\w+)/.exec(inner.message)?.[1];
    }
  }
  if (expected.size === 0) return issue.message;
  return `Invalid input: expected ${[...expected].join(" or ")}${received ? `, received ${received}` : ""}`;
}

/** Describes the first problems of a failed parse, e.g. `message.content: expected array`. */
function describeIssues(error: z.ZodError): string {
  return error.issues
    .slice(0, 3)
    .map((issue) => `${issue.path.length > 0 ? issue.path.join(".") : "(entry)"}: ${describeIssue(issue)}`)
    .join("; ");
}

/**
 * Checks an entry's structure (zod is loaded only for an entry the shape check does not vouch for). Returns `undefined` when it is valid, else a short description of what
 * is wrong. Never throws and never modifies the entry (unknown fields and types are allowed).
 */
export function findEntryProblem(entry: unknown): string | undefined {
  return isWellFormedEntry(entry) ? undefined : findSchemaProblem(entry);
}

/** {@link findEntryProblem} by the zod schemas alone (no fast path): the reference the fast path must agree with. */
export function findSchemaProblem(entry: unknown): string | undefined {
  if (entry === null || typeof entry !== "object" || Array.isArray(entry))
    return "an entry must be a JSON object";
  const type = (entry as { type?: unknown }).type;
  if (typeof type !== "string") return "type: expected a string";
  const result = schemaFor(entry as { type: string }).safeParse(entry);
  return result.success ? undefined : `${type} entry: ${describeIssues(result.error)}`;
}

/** Checks a header line. Returns `undefined` when valid, else what is wrong. */
export function findHeaderProblem(header: unknown): string | undefined {
  if (isWellFormedHeader(header)) return undefined;
  const result = entrySchemas().headerSchema.safeParse(header);
  return result.success ? undefined : describeIssues(result.error);
}
