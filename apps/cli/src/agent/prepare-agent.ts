import type { AgentTool } from "@arbor/agent-loop";
import type { Provider, ReasoningLevel, SecretRedactor } from "@arbor/providers";
import {
  type AgentSession,
  createAgentSession,
  resolveArborHome,
  type Settings,
  type UnknownSettingsKey,
} from "@arbor/runtime";
import type { SessionIssue, SessionStore } from "@arbor/session-store";
import type { CliIo } from "../cli-io";
import { createCliModelRegistry } from "../models/create-cli-model-registry";
import { createModelProvider } from "../models/create-model-provider";
import type { CustomModelDefinition } from "../models/load-models-file";
import { type ResolvedModel, requireApiKey, resolveModel } from "../models/resolve-model";
import { createCliRedactor } from "../secrets/create-cli-redactor";
import { isDatabaseLocation } from "../sessions/is-database-location";
import { openAgentSessionStore, type SessionChoice } from "../sessions/open-agent-session-store";
import { warnAboutIssue } from "../sessions/warn-about-issue";
import { createCodingTools } from "../tools/create-coding-tools";
import type { PathGuard } from "../tools/path-guard";
import {
  type DecideProjectTrustOptions,
  decideProjectTrust,
  ignoredProjectWarning,
  type ProjectTrust,
} from "../trust/decide-project-trust";
import { loadCliConfig } from "../trust/load-cli-config";
import type { AgentCommandOptions } from "../usage/agent-usage";
import { assembleSystemPrompt } from "./assemble-system-prompt";
import type { SystemPrompt } from "./build-system-prompt";

/** Everything an agent mode needs besides the session itself; shared by print and interactive modes. */
export interface AgentEnvironment {
  env: NodeJS.ProcessEnv;
  cwd: string;
  arborHome: string;
  settings: Settings;
  /** Top-level keys of the settings files that are not Arbor settings (see `startupWarnings`). */
  unknownSettingsKeys: UnknownSettingsKey[];
  /** Top-level settings keys read through the sessions' settings (by the runtime and the extensions). */
  settingsKeysRead: Set<string>;
  customModels: CustomModelDefinition[];
  extensions: string[];
  tools: AgentTool[];
  /** Decides which paths the file tools may touch; the interactive mode sets its `confirm`. */
  toolGuard: PathGuard;
  thinkingLevel: ReasoningLevel | undefined;
  options: AgentCommandOptions;
  /**
   * The system prompt of every session of this run, with its sections (arbor's instructions or
   * `--system-prompt`, the context files, `--append-system-prompt`, the environment).
   */
  systemPrompt: SystemPrompt;
  /** Prints a warning for a problem found in a session file (at open or when an entry is read). */
  onIssue: (issue: SessionIssue) => void;
  /** The secrets kept out of output and session files; `bindModel` adds the model's key and endpoint. */
  redactor: SecretRedactor;
  /** How the sessions run, for extensions (`api.ui.mode`). */
  mode: "interactive" | "print" | "json";
}

/** A model, its provider and key, ready for a session. */
export interface ModelBinding {
  resolved: ResolvedModel;
  provider: Provider;
}

/**
 * Decides whether the working folder's project configuration is loaded (see `decideProjectTrust`):
 * `--trust-project`, a saved decision, else `ask` when the mode can ask.
 * @throws CliError `CLI_TRUST_STORE_INVALID`.
 */
export function decideAgentTrust(
  options: AgentCommandOptions,
  io: CliIo,
  ask?: DecideProjectTrustOptions["ask"],
): Promise<ProjectTrust> {
  return decideProjectTrust({
    cwd: io.cwd ?? process.cwd(),
    arborHome: resolveArborHome(io.env ?? process.env),
    trustFlag: options.trustProject,
    ...(ask ? { ask } : {}),
  });
}

/**
 * Reads settings, models files and extension paths for an agent mode: the user's always, the
 * project's only when `trust` says so (otherwise one warning line on stderr names what was ignored);
 * and the system prompt with the context files (see `assembleSystemPrompt`: AGENTS.md and CLAUDE.md
 * are plain text for the model and load whatever the folder's trust).
 * @throws SettingsError, CliError (`CLI_MODELS_FILE_INVALID`, `CLI_PROJECT_MODEL_REFUSED`, `CLI_USAGE`
 *   for a prompt flag naming a missing file).
 */
export function loadAgentEnvironment(
  options: AgentCommandOptions,
  io: CliIo,
  trust: ProjectTrust,
  mode: AgentEnvironment["mode"],
): AgentEnvironment {
  const env = io.env ?? process.env;
  const cwd = io.cwd ?? process.cwd();
  const arborHome = resolveArborHome(env);
  const ignored = ignoredProjectWarning(trust, {
    needs: { models: true, extensions: true },
    trustFlag: true,
  });
  if (ignored !== undefined) io.stderr.write(ignored);
  const config = loadCliConfig({
    cwd,
    arborHome,
    projectTrusted: trust.trusted,
    needs: { models: "all", extensions: true },
    warn: (line) => io.stderr.write(line),
  });
  const { settings } = config;
  const codingTools = createCodingTools(cwd, settings.tools);
  const systemPrompt = assembleSystemPrompt({
    cwd,
    arborHome,
    env,
    flags: options,
    warn: (line) => io.stderr.write(line),
  });
  return {
    env,
    cwd,
    arborHome,
    settings,
    unknownSettingsKeys: config.unknownSettingsKeys,
    settingsKeysRead: new Set(),
    customModels: config.customModels,
    extensions: config.extensions,
    tools: codingTools.tools,
    toolGuard: codingTools.guard,
    thinkingLevel: options.thinking as ReasoningLevel | undefined,
    options,
    systemPrompt,
    onIssue: (issue) => warnAboutIssue(issue, io),
    redactor: io.redactor ?? createCliRedactor(env),
    mode,
  };
}

/** `settings` as seen by a session: each top-level key read (by the runtime or an extension) is added to `read`. */
function recordReads(settings: Settings, read: Set<string>): Settings {
  return new Proxy(settings, {
    get(target, key, receiver) {
      if (typeof key === "string") read.add(key);
      return Reflect.get(target, key, receiver);
    },
  });
}

/** The session file the flags select (the interactive `--resume` picks its own). */
export function sessionChoiceOf(options: AgentCommandOptions): SessionChoice {
  if (options.noSession) return { kind: "memory" };
  if (options.sessionPath !== undefined) return { kind: "path", path: options.sessionPath };
  if (options.continueRecent) return { kind: "continue" };
  return { kind: "new" };
}

/** Opens the session store the flags select. */
export function openStoreFor(environment: AgentEnvironment, choice: SessionChoice): SessionStore {
  return openAgentSessionStore(choice, {
    arborHome: environment.arborHome,
    cwd: environment.cwd,
    onIssue: environment.onIssue,
  });
}

/**
 * {@link openStoreFor}, plus a database location (`--session postgresql://host/db#<id>`): that
 * session opened with its writer lock (loads the PostgreSQL backend only then).
 * @throws session-store errors (`SESSION_LOCKED` naming the holder, `SESSION_READ_FAILED`).
 */
export async function openAgentStore(
  environment: AgentEnvironment,
  choice: SessionChoice,
): Promise<SessionStore> {
  if (choice.kind === "path" && isDatabaseLocation(choice.path)) {
    const { openDatabaseSession } = await import("../sessions/open-database-session");
    const opened = await openDatabaseSession(choice.path, {
      mode: "write",
      validate: "lazy",
      cwd: environment.cwd,
      deferFileUntilConversation: true,
      onIssue: environment.onIssue,
    });
    return opened.store;
  }
  return openStoreFor(environment, choice);
}

/**
 * Picks the model (flags, settings, the session's own model, defaults), checks its key and creates
 * its provider. The key and the endpoint's password join the environment's redactor.
 * @throws CliError `CLI_UNKNOWN_MODEL`, `CLI_MISSING_API_KEY` (naming the variable).
 */
export async function bindModel(
  environment: AgentEnvironment,
  overrides: { model?: string; sessionModel?: { provider: string; modelId: string } | null } = {},
): Promise<ModelBinding> {
  const { options, settings } = environment;
  const explicit = overrides.model ?? options.model;
  const resolved = resolveModel({
    ...(options.provider !== undefined ? { provider: options.provider } : {}),
    ...(explicit !== undefined ? { model: explicit } : {}),
    ...(options.baseUrl !== undefined ? { baseUrl: options.baseUrl } : {}),
    ...(settings.defaultProvider !== undefined ? { settingsProvider: settings.defaultProvider } : {}),
    ...(settings.defaultModel !== undefined ? { settingsModel: settings.defaultModel } : {}),
    sessionModel: overrides.sessionModel ?? null,
    customModels: environment.customModels,
    env: environment.env,
  });
  requireApiKey(resolved);
  environment.redactor.add(resolved.apiKey);
  environment.redactor.addUrlCredentials(resolved.model.baseUrl);
  return { resolved, provider: await createModelProvider(resolved, environment.env) };
}

/**
 * Creates the agent session over `store` with the built-in tools, the settings and the extensions;
 * error texts are redacted with the environment's redactor before they are written to the file.
 * `start` is what extensions get in `session_start` (default: reason `startup`).
 */
export function startAgentSession(
  environment: AgentEnvironment,
  store: SessionStore,
  binding: ModelBinding,
  start: { reason: "startup" | "new" | "resume" | "fork"; previousSessionFile?: string } = {
    reason: "startup",
  },
): Promise<AgentSession> {
  return createAgentSession({
    startReason: start.reason,
    ...(start.previousSessionFile !== undefined ? { previousSessionFile: start.previousSessionFile } : {}),
    store,
    model: binding.resolved.model,
    provider: binding.provider,
    tools: environment.tools,
    settings: recordReads(environment.settings, environment.settingsKeysRead),
    extensions: environment.extensions,
    systemPrompt: environment.systemPrompt.text,
    redactText: (text) => environment.redactor.redact(text),
    mode: environment.mode,
    models: createCliModelRegistry({
      customModels: environment.customModels,
      env: environment.env,
      redactor: environment.redactor,
    }),
    ...(environment.thinkingLevel !== undefined ? { thinkingLevel: environment.thinkingLevel } : {}),
  });
}
