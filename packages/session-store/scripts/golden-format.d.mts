// Types of golden-format.mjs, for the package's tests.
export interface ProjectionAdapter {
  entryIds(): string[];
  leafAfterLoad(): string | null;
  select(leaf: string | null | undefined): void;
  branch(): Array<{ id: string }>;
  project(): {
    entries: Array<{ sourceEntry: { id: string }; messages: unknown[] }>;
    model: unknown;
    thinkingLevel: string;
  };
}

export interface GoldenProjection {
  leaf: string | null;
  path: string[];
  entries: Array<[string, number[]]>;
  model: unknown;
  thinkingLevel: string;
}

export function canonical(value: unknown): string;
export function normalizeIds<T>(value: T, idToRef: ReadonlyMap<string, string>): T;
export function describeTree(
  roots: ReadonlyArray<{ entry: { id: string }; label?: string; children: unknown[] }>,
  idToRef: ReadonlyMap<string, string>,
): unknown[];
export function collectProjections(
  adapter: ProjectionAdapter,
  idToRef: ReadonlyMap<string, string>,
  normalize?: (value: unknown) => unknown,
): { messages: unknown[]; projections: GoldenProjection[] };
export function piAdapter(manager: unknown): ProjectionAdapter;
export function arborAdapter(store: {
  leafId: string | null;
  getEntries(): Array<{ id: string }>;
  resetLeaf(): void;
  branch(id: string): void;
  getBranch(): Array<{ id: string }>;
  getProjection(): ProjectionAdapter extends { project(): infer P } ? P : never;
}): ProjectionAdapter;
