/**
 * zod schemas for the structural checks done when entries are loaded or appended. They check what
 * the projection and tree operations rely on and let every other field through (loose objects), so
 * unknown fields survive. They are an internal detail: the public types in `session-entry.ts` are
 * zod-free.
 */
import { z } from "zod";

const block = z.looseObject({ type: z.string() });
const blocks = z.array(block);
/** Message content as pi tolerates it: a string, blocks, or missing/null (projected as empty). */
const content = z.union([z.string(), blocks]).nullish();

const messageSchemas: Record<string, z.ZodType> = {
  user: z.looseObject({ content }),
  assistant: z.looseObject({ content: blocks.nullish() }),
  toolResult: z.looseObject({ content: blocks.nullish() }),
  system: z.looseObject({
    content,
    sections: z.record(z.string(), z.string().nullable()).optional(),
    toolsAdded: z.array(z.looseObject({ name: z.string() })).optional(),
    toolsRemoved: z.array(z.looseObject({ name: z.string() })).optional(),
  }),
  bashExecution: z.looseObject({ command: z.string(), output: z.string() }),
  custom: z.looseObject({ customType: z.string(), content }),
};

export const headerSchema = z.looseObject({
  type: z.literal("session"),
  id: z.string(),
  version: z.number().optional(),
  timestamp: z.string().optional(),
  cwd: z.string().optional(),
  parentSession: z.string().optional(),
});

const base = { id: z.string(), parentId: z.string().nullable(), timestamp: z.string() };

const messageEntry = (message: z.ZodType) => z.looseObject({ ...base, message });

/** `message` entries by role; roles not listed only need `role` to be a string. */
export const messageEntrySchemas: Record<string, z.ZodType> = Object.fromEntries(
  Object.entries(messageSchemas).map(([role, schema]) => [role, messageEntry(schema)]),
);
export const anyMessageEntrySchema = messageEntry(z.looseObject({ role: z.string() }));

const usage = z.looseObject({ input: z.number(), output: z.number(), totalTokens: z.number() });

const entryTypeSchemas: Record<string, z.ZodType> = {
  thinking_level_change: z.looseObject({ ...base, thinkingLevel: z.string() }),
  model_change: z.looseObject({ ...base, provider: z.string(), modelId: z.string() }),
  usage: z.looseObject({ ...base, kind: z.string(), provider: z.string(), model: z.string(), usage }),
  compaction: z.looseObject({
    ...base,
    summary: z.string(),
    // Absent after pi's own v1 migration when the old index pointed at the header: keeps nothing.
    firstKeptEntryId: z.string().optional(),
    tokensBefore: z.number(),
    systemMessage: z.looseObject({ role: z.literal("system") }).optional(),
  }),
  context_edit: z.looseObject({
    ...base,
    targetId: z.string(),
    replacement: z.looseObject({ content: z.union([z.string(), blocks]) }).nullable(),
  }),
  branch_summary: z.looseObject({ ...base, fromId: z.string(), summary: z.string() }),
  custom: z.looseObject({ ...base, customType: z.string() }),
  custom_message: z.looseObject({
    ...base,
    customType: z.string(),
    content,
    display: z.boolean().optional(),
  }),
  label: z.looseObject({ ...base, targetId: z.string(), label: z.string().nullish() }),
  session_info: z.looseObject({ ...base, name: z.string().nullish() }),
};

/**
 * Schemas of the non-message entry types. Not compiled: `entry-shape-check.ts` accepts the valid
 * entries first, so a schema only runs for the rare entry it does not vouch for.
 */
export const entrySchemas: Record<string, z.ZodType> = entryTypeSchemas;

/** Schema for entries of unknown types: only the tree fields are checked. */
export const unknownEntrySchema = z.looseObject(base);
