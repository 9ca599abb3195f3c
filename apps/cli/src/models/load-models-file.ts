import fs from "node:fs";
import path from "node:path";
import { ArborError, defineModel, listModels } from "@arbor/providers";
import { CliError } from "../cli-error";
import { describeJsonError } from "../internal/describe-json-error";

/** Wire APIs a custom model may use. */
export const MODEL_APIS = ["openai-chat", "openai-responses", "anthropic-messages"] as const;

/** The wire API of a model: OpenAI Chat Completions, OpenAI Responses or Anthropic Messages. */
export type ModelApi = (typeof MODEL_APIS)[number];

/** A model declared in a models file. */
export interface CustomModelDefinition {
  id: string;
  /** Display name; defaults to the id. */
  name?: string;
  /** Provider name, for example `openai-compatible`; the key is read from `<PROVIDER>_API_KEY`. */
  provider: string;
  api: ModelApi;
  baseUrl?: string;
  contextWindow: number;
  maxTokens: number;
  reasoning?: boolean;
  input?: Array<"text" | "image">;
  /** US dollars per million tokens. */
  cost?: { input: number; output: number; cacheRead?: number; cacheWrite?: number };
  /** Environment variable holding the API key (overrides the provider default). */
  apiKeyEnv?: string;
  headers?: Record<string, string>;
  /** The file that declared it. */
  source: string;
}

type Checker = (value: unknown) => string | undefined;

const positiveInteger: Checker = (value) =>
  Number.isSafeInteger(value) && (value as number) > 0 ? undefined : "expected a positive integer";
const nonEmptyString: Checker = (value) =>
  typeof value === "string" && value.trim() !== "" ? undefined : "expected a non-empty string";
const nonNegativeNumber: Checker = (value) =>
  typeof value === "number" && Number.isFinite(value) && value >= 0 ? undefined : "expected a number ≥ 0";

const FIELDS: Record<string, { required: boolean; check: Checker }> = {
  id: { required: true, check: nonEmptyString },
  name: { required: false, check: nonEmptyString },
  provider: { required: true, check: nonEmptyString },
  api: {
    required: true,
    check: (value) =>
      MODEL_APIS.includes(value as ModelApi) ? undefined : `expected one of ${MODEL_APIS.join(", ")}`,
  },
  baseUrl: {
    required: false,
    check: (value) => (typeof value === "string" && URL.canParse(value) ? undefined : "expected a URL"),
  },
  contextWindow: { required: true, check: positiveInteger },
  maxTokens: { required: true, check: positiveInteger },
  reasoning: {
    required: false,
    check: (value) => (typeof value === "boolean" ? undefined : "expected true or false"),
  },
  input: {
    required: false,
    check: (value) =>
      Array.isArray(value) && value.every((item) => item === "text" || item === "image")
        ? undefined
        : 'expected an array of "text" and "image"',
  },
  cost: {
    required: false,
    check: (value) => {
      if (typeof value !== "object" || value === null || Array.isArray(value)) return "expected an object";
      for (const [key, amount] of Object.entries(value)) {
        if (!["input", "output", "cacheRead", "cacheWrite"].includes(key)) return `unknown key "${key}"`;
        const problem = nonNegativeNumber(amount);
        if (problem) return `${key}: ${problem}`;
      }
      const cost = value as Record<string, unknown>;
      return cost.input === undefined || cost.output === undefined ? "needs input and output" : undefined;
    },
  },
  apiKeyEnv: { required: false, check: nonEmptyString },
  headers: {
    required: false,
    check: (value) =>
      typeof value === "object" &&
      value !== null &&
      !Array.isArray(value) &&
      Object.values(value).every((item) => typeof item === "string")
        ? undefined
        : "expected an object of strings",
  },
};

function invalid(file: string, message: string): CliError {
  return new CliError("CLI_MODELS_FILE_INVALID", `${file}: ${message}`);
}

function show(value: unknown): string {
  const text = JSON.stringify(value);
  return text === undefined ? String(value) : text.length > 40 ? `${text.slice(0, 37)}...` : text;
}

/**
 * Reads and validates one models file (`{ "models": [ … ] }`). A missing file yields `[]`.
 * @throws CliError `CLI_MODELS_FILE_INVALID` naming the file and the first problem (JSON syntax with
 * line and column, an unknown or missing key with its index, a bad value, a duplicate id).
 */
export function loadModelsFile(file: string): CustomModelDefinition[] {
  let text: string;
  try {
    text = fs.readFileSync(file, "utf8");
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT") return [];
    throw invalid(file, `cannot read (${(error as Error).message})`);
  }
  let parsed: unknown;
  try {
    parsed = JSON.parse(text.replace(/^\uFEFF/, ""));
  } catch (error) {
    throw invalid(file, `not valid JSON at ${describeJsonError(text, error)}`);
  }
  if (
    typeof parsed !== "object" ||
    parsed === null ||
    !Array.isArray((parsed as { models?: unknown }).models)
  ) {
    throw invalid(file, 'expected an object with a "models" array');
  }
  const seen = new Set<string>();
  return (parsed as { models: unknown[] }).models.map((raw, index) => {
    const where = `models[${index}]`;
    if (typeof raw !== "object" || raw === null || Array.isArray(raw)) {
      throw invalid(file, `${where}: expected an object`);
    }
    const record = raw as Record<string, unknown>;
    for (const key of Object.keys(record)) {
      if (!(key in FIELDS)) throw invalid(file, `${where}: unknown key "${key}"`);
    }
    for (const [key, field] of Object.entries(FIELDS)) {
      const value = record[key];
      if (value === undefined) {
        if (field.required) throw invalid(file, `${where}.${key} is missing`);
        continue;
      }
      const problem = field.check(value);
      if (problem) throw invalid(file, `${where}.${key}: ${problem}, got ${show(value)}`);
    }
    const id = record.id as string;
    if (seen.has(id)) throw invalid(file, `${where}: duplicate model id "${id}"`);
    seen.add(id);
    const { apiKeyEnv: _apiKeyEnv, ...definition } = record as Omit<CustomModelDefinition, "source">;
    try {
      defineModel(definition);
    } catch (error) {
      if (!ArborError.isInstance(error)) throw error;
      throw invalid(file, `${where}: ${error.message.replace(/^defineModel: /, "")}`);
    }
    return { ...(record as Omit<CustomModelDefinition, "source">), source: file };
  });
}

/** Where models files are looked up, and whether the project's may be read. */
export interface ModelsFileLocations {
  arborHome: string;
  cwd: string;
  /** Read `<cwd>/.arbor/models.json` (only for a trusted folder, see `decideProjectTrust`). */
  includeProject: boolean;
  /**
   * Variables besides `*_API_KEY` a project model may name as `apiKeyEnv` (the user's own
   * `allowedApiKeyEnv` setting). Default none.
   */
  allowedApiKeyEnv?: readonly string[];
}

function refused(file: string, message: string): CliError {
  return new CliError("CLI_PROJECT_MODEL_REFUSED", `${file}: ${message}`);
}

/**
 * Checks the rules a project's models file must follow even in a trusted folder: it declares new
 * models only (no built-in id, no id of the user's own models file), and its `apiKeyEnv` names a
 * variable ending in `_API_KEY` unless the user allowed that variable.
 */
function checkProjectModels(
  file: string,
  models: readonly CustomModelDefinition[],
  homeModels: readonly CustomModelDefinition[],
  allowedApiKeyEnv: readonly string[],
): void {
  const builtIn = new Set(listModels().map((model) => model.id));
  models.forEach((model, index) => {
    const where = `models[${index}]`;
    if (builtIn.has(model.id)) {
      throw refused(
        file,
        `${where}: "${model.id}" is a built-in model id; a project models file may not redefine it (it would decide where your key for it goes). Give the model an id of its own`,
      );
    }
    const home = homeModels.find((candidate) => candidate.id === model.id);
    if (home !== undefined) {
      throw refused(
        file,
        `${where}: "${model.id}" is already defined in ${home.source}; a project models file may not redefine your own models. Give the model an id of its own`,
      );
    }
    const variable = model.apiKeyEnv;
    if (variable !== undefined && !variable.endsWith("_API_KEY") && !allowedApiKeyEnv.includes(variable)) {
      throw refused(
        file,
        `${where}.apiKeyEnv: "${variable}" is refused: a project models file may only name variables ending in _API_KEY; to allow this one, add "allowedApiKeyEnv": [${JSON.stringify(variable)}] to your own settings file`,
      );
    }
  });
}

/**
 * Loads `<arborHome>/models.json` and, with `includeProject`, `<cwd>/.arbor/models.json`. The
 * project file may only add models (see the checks below); the user's file may redefine built-in ids.
 * Throws like {@link loadModelsFile}.
 *
 * @throws CliError `CLI_PROJECT_MODEL_REFUSED` naming the file and the model when the project file
 * redefines a built-in id or one of the user's models, or names an `apiKeyEnv` that does not end in
 * `_API_KEY` and is not in `allowedApiKeyEnv`.
 */
export function loadCustomModels(locations: ModelsFileLocations): CustomModelDefinition[] {
  const homeFile = path.join(locations.arborHome, "models.json");
  const projectFile = path.join(path.resolve(locations.cwd), ".arbor", "models.json");
  const homeModels = loadModelsFile(homeFile);
  if (!locations.includeProject || projectFile === homeFile) return homeModels;
  const projectModels = loadModelsFile(projectFile);
  checkProjectModels(projectFile, projectModels, homeModels, locations.allowedApiKeyEnv ?? []);
  return [...homeModels, ...projectModels];
}
