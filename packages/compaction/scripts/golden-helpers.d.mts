// Types of golden-helpers.mjs for the TypeScript golden tests.
export declare function canonicalJson(value: unknown): string;
export declare function hashOf(value: unknown): string;
export declare function labelMessages(
  messages: readonly { role: string }[],
  projectionEntries: readonly { sourceEntry: { id: string }; messages: readonly unknown[] }[],
): string[];
export declare function fileOpsRecord(fileOps: {
  read: Set<string>;
  written: Set<string>;
  edited: Set<string>;
}): {
  read: string[];
  written: string[];
  edited: string[];
};
export declare const KEEP_VALUES: readonly number[];
export declare const BRANCH_BUDGETS: readonly number[];
export declare const GENERATED_SESSIONS: readonly { name: string; entries: number; seed: number }[];
export declare const GENERATED_KEEP_VALUES: readonly number[];
export declare function summarizeLabels(labels: readonly string[]): {
  count: number;
  first: string | null;
  last: string | null;
  hash: string;
};
