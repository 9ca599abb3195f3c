import { listModels } from "@arbor/providers";
import type { Settings } from "@arbor/runtime";
import type { CliIo } from "../cli-io";
import { formatInteger } from "../format/format-number";
import { safeJsonStringify } from "../format/safe-json-stringify";
import type { CustomModelDefinition } from "../models/load-models-file";
import { resolveModel } from "../models/resolve-model";
import { loadOfflineConfig } from "../trust/load-offline-config";
import type { ModelsInput } from "../usage/models-usage";

/** One row of `arbor models`. */
interface ModelRow {
  provider: string;
  id: string;
  name: string;
  contextWindow: number;
  maxTokens: number;
  cost: { input: number; output: number; cacheRead: number; cacheWrite: number } | null;
  /** `built-in`, or the models file that declares it. */
  source: string;
  default: boolean;
}

function price(value: number): string {
  return `$${value.toFixed(value !== 0 && value < 0.01 ? 3 : 2)}`;
}

function defaultModelKey(io: CliIo, settings: Settings, customModels: readonly CustomModelDefinition[]) {
  const env = io.env ?? process.env;
  try {
    const resolved = resolveModel({
      ...(settings.defaultProvider !== undefined ? { settingsProvider: settings.defaultProvider } : {}),
      ...(settings.defaultModel !== undefined ? { settingsModel: settings.defaultModel } : {}),
      customModels,
      env,
    });
    return `${resolved.model.provider}/${resolved.model.id}`;
  } catch {
    return undefined; // a default naming an unknown model: nothing is marked (arbor itself says why)
  }
}

/**
 * `arbor models`: the built-in catalog and the declared models (the user's models file, and the
 * project's in a trusted folder) with window, max output, price and source; a declared model
 * replaces the built-in with the same provider and id. Reads settings and models files (an
 * untrusted project's are ignored with one warning line, as for the other offline commands), no
 * network, no key.
 * @throws CliError `CLI_MODELS_FILE_INVALID`, `CLI_PROJECT_MODEL_REFUSED`; SettingsError.
 */
export async function runModelsCommand(input: ModelsInput, io: CliIo): Promise<number> {
  const { settings, customModels } = loadOfflineConfig(io, { projectModels: true });
  const defaultKey = defaultModelKey(io, settings, customModels);
  const declared = new Set(customModels.map((model) => `${model.provider}/${model.id}`));
  const rows: ModelRow[] = [
    ...listModels()
      .filter((model) => !declared.has(`${model.provider}/${model.id}`))
      .map((model) => ({ ...model, source: "built-in" })),
    ...customModels.map((model) => ({ ...model, name: model.name ?? model.id })),
  ].map((model) => ({
    provider: model.provider,
    id: model.id,
    name: model.name ?? model.id,
    contextWindow: model.contextWindow,
    maxTokens: model.maxTokens,
    cost: model.cost ? { cacheRead: 0, cacheWrite: 0, ...model.cost } : null,
    source: model.source,
    default: `${model.provider}/${model.id}` === defaultKey,
  }));
  if (input.json) {
    io.stdout.write(`${safeJsonStringify({ models: rows })}\n`);
    return 0;
  }
  const table = [
    ["", "MODEL", "WINDOW", "MAX OUT", "$/M IN", "$/M OUT", "DEFINED IN"],
    ...rows.map((row) => [
      row.default ? "*" : "",
      `${row.provider}/${row.id}`,
      formatInteger(row.contextWindow),
      formatInteger(row.maxTokens),
      row.cost ? price(row.cost.input) : "-",
      row.cost ? price(row.cost.output) : "-",
      row.source,
    ]),
  ];
  const widths =
    table[0]?.map((_, column) => Math.max(...table.map((cells) => (cells[column] ?? "").length))) ?? [];
  const numeric = new Set([2, 3, 4, 5]);
  for (const cells of table) {
    const line = cells
      .map((cell, column) => {
        const width = widths[column] ?? 0;
        return column === cells.length - 1
          ? cell
          : numeric.has(column)
            ? cell.padStart(width)
            : cell.padEnd(width);
      })
      .join("  ");
    io.stdout.write(`${line.trimEnd()}\n`);
  }
  return 0;
}
