/**
 * zod schemas for the structural checks done when entries are loaded or appended. They check what
 * the projection and tree operations rely on and let every other field through (loose objects), so
 * unknown fields survive. They are an internal detail: the public types in `session-entry.ts` are
 * zod-free.
 *
 * zod is loaded the first time a schema is needed ({@link entrySchemas}), not when the package is
 * imported: `entry-shape-check.ts` vouches for well-formed entries without it, so opening and reading
 * a healthy session never loads zod (it costs more start-up time than the rest of the package).
 */
import { createRequire } from "node:module";
import type * as Zod from "zod";

/** The schemas, built by {@link entrySchemas}. */
export interface EntrySchemas {
  headerSchema: Zod.ZodType;
  /** `message` entries by role; roles not listed only need `role` to be a string. */
  messageEntrySchemas: Record<string, Zod.ZodType>;
  anyMessageEntrySchema: Zod.ZodType;
  /** Schemas of the non-message entry types (not compiled: they run only for entries the shape check does not vouch for). */
  entrySchemas: Record<string, Zod.ZodType>;
  /** Schema for entries of unknown types: only the tree fields are checked. */
  unknownEntrySchema: Zod.ZodType;
}

let built: EntrySchemas | undefined;

/** The schemas; the first call loads zod (synchronously) and builds them. */
export function entrySchemas(): EntrySchemas {
  if (built === undefined) {
    const { z } = createRequire(import.meta.url)("zod") as typeof Zod;
    built = buildSchemas(z);
  }
  return built;
}

function buildSchemas(z: typeof Zod.z): EntrySchemas {
  const block = z.looseObject({ type: z.string() });
  const blocks = z.array(block);
  /** Message content as pi tolerates it: a string, blocks, or missing/null (projected as empty). */
  const content = z.union([z.string(), blocks]).nullish();

  const messageSchemas: Record<string, Zod.ZodType> = {
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

  const headerSchema = z.looseObject({
    type: z.literal("session"),
    id: z.string(),
    version: z.number().optional(),
    timestamp: z.string().optional(),
    cwd: z.string().optional(),
    parentSession: z.string().optional(),
  });

  const base = { id: z.string(), parentId: z.string().nullable(), timestamp: z.string() };

  const messageEntry = (message: Zod.ZodType) => z.looseObject({ ...base, message });

  const messageEntrySchemas: Record<string, Zod.ZodType> = Object.fromEntries(
    Object.entries(messageSchemas).map(([role, schema]) => [role, messageEntry(schema)]),
  );
  const anyMessageEntrySchema = messageEntry(z.looseObject({ role: z.string() }));

  const usage = z.looseObject({ input: z.number(), output: z.number(), totalTokens: z.number() });

  const entryTypeSchemas: Record<string, Zod.ZodType> = {
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

  const unknownEntrySchema = z.looseObject(base);
  return {
    headerSchema,
    messageEntrySchemas,
    anyMessageEntrySchema,
    entrySchemas: entryTypeSchemas,
    unknownEntrySchema,
  };
}
