// Types of golden-scenarios.mjs, for the package's tests.
export interface ScenarioSpec {
  fixture: string;
  description?: string;
  steps: Array<{ op: string; args?: unknown[] }>;
}
export interface ScenarioStep {
  op: string;
  created?: number;
  error?: string;
  code?: string;
}
export function normalizeTimes<T>(value: T): T;
export function normalizeMessage(message: string, created: readonly string[]): string;
export function scenarioIdMap(
  entries: ReadonlyArray<{ id: string }>,
  refs: readonly string[],
): Map<string, string>;
export function replayScenarioWithArbor(
  arbor: { createInMemorySessionStore: unknown; openSessionStore: unknown },
  target: undefined,
  spec: ScenarioSpec,
  text: string,
): { store: unknown; steps: ScenarioStep[] };
export function describeArborFinal(store: unknown, refs: readonly string[]): Record<string, unknown>;
export function canonical(value: unknown): string;
