import fs from "node:fs";
import path from "node:path";
import { gunzipSync } from "node:zlib";
import { listModels, type Model } from "@arbor/providers";
import {
  type ContextPolicySettings,
  readSettingsFile,
  resolveArborHome,
  type Settings,
} from "@arbor/runtime";
import { createInMemorySessionStore } from "@arbor/session-store";
import { CliError } from "../cli-error";
import type { CliIo } from "../cli-io";
import { createModelProvider } from "../models/create-model-provider";
import { resolveModel } from "../models/resolve-model";
import { formatReplayReport } from "../replay/format-replay-report";
import { type ReplaySummarizer, replaySession } from "../replay/replay-session";
import type { ReplayInput } from "../usage/replay-usage";

const DEFAULT_MODEL = "claude-sonnet-4-5";

/** The catalogue model named by `--model` (an id or `provider/id`), with `--window` applied. */
function chooseModel(input: ReplayInput): Model {
  const wanted = input.model ?? DEFAULT_MODEL;
  const model = listModels().find(
    (candidate) => candidate.id === wanted || `${candidate.provider}/${candidate.id}` === wanted,
  );
  if (model === undefined)
    throw new CliError("CLI_UNKNOWN_MODEL", `replay: no built-in model has the id "${wanted}"`);
  return input.window === undefined ? model : { ...model, contextWindow: input.window };
}

/**
 * The summary model of `--summary-model` with its provider (the key from the environment).
 * @throws CliError `CLI_UNKNOWN_MODEL`; `CLI_MISSING_API_KEY` when its key is not set.
 */
async function chooseSummaryModel(input: ReplayInput, io: CliIo): Promise<ReplaySummarizer | undefined> {
  if (input.summaryModel === undefined) return undefined;
  const env = io.env ?? process.env;
  const resolved = resolveModel({ model: input.summaryModel, customModels: [], env });
  if (resolved.apiKey === undefined && !resolved.keyOptional) {
    throw new CliError(
      "CLI_MISSING_API_KEY",
      `replay: --summary-model ${resolved.model.provider}/${resolved.model.id} needs ${resolved.apiKeyEnv}`,
    );
  }
  io.redactor?.add(resolved.apiKey);
  io.redactor?.addUrlCredentials(resolved.model.baseUrl);
  return { model: resolved.model, provider: await createModelProvider(resolved, env) };
}

/**
 * The user's settings that shape a replay: the knobs of `contextPolicy` when it names the replayed
 * policy, and `compaction`. Project settings are not read (a replay is not tied to a folder).
 */
function replaySettings(
  input: ReplayInput,
  io: CliIo,
): { policy: ContextPolicySettings; compaction?: Settings["compaction"] } {
  const settings =
    readSettingsFile(path.join(resolveArborHome(io.env ?? process.env), "settings.json")) ?? {};
  const configured = settings.contextPolicy;
  const knobs = typeof configured === "object" && configured.name === input.policy ? configured : {};
  return {
    policy: { ...knobs, name: input.policy },
    ...(settings.compaction === undefined ? {} : { compaction: settings.compaction }),
  };
}

/**
 * `arbor replay <session>`: reads the session (gzipped or not) into memory, replays its path under
 * the policy (with the knobs of the user's `contextPolicy` setting when it names the same policy,
 * and the user's `compaction` settings) and prints the report (a table, or one JSON object with `--json`). The file is only
 * read; lines the store cannot read are skipped and counted (`unreadLines`). Exit code 0; 1 for a
 * missing file or an unknown leaf.
 */
export async function runReplayCommand(input: ReplayInput, io: CliIo): Promise<number> {
  const stat = fs.statSync(input.file, { throwIfNoEntry: false });
  if (stat === undefined || !stat.isFile())
    throw new CliError("CLI_FILE_NOT_FOUND", `${input.file}: no such session file`);
  const raw = fs.readFileSync(input.file);
  const content = (raw[0] === 0x1f && raw[1] === 0x8b ? gunzipSync(raw) : raw).toString("utf8");
  const recorded = createInMemorySessionStore({ content });
  const model = chooseModel(input);
  let path: ReturnType<typeof recorded.getBranch>;
  try {
    if (input.leaf !== undefined && recorded.getEntry(input.leaf) === undefined) {
      throw new CliError("CLI_FILE_NOT_FOUND", `${input.file}: no entry with the id "${input.leaf}"`);
    }
    path = recorded.getBranch(input.leaf);
  } finally {
    recorded.close();
  }
  // Lines the store could not read (pi wrote two entries on one line now and then) are left out and counted.
  const unreadLines = recorded.issues.length;
  const summarizer = await chooseSummaryModel(input, io);
  const report = {
    ...(await replaySession({
      path,
      model,
      ...replaySettings(input, io),
      ...(summarizer === undefined ? {} : { summarizer }),
    })),
    unreadLines,
  };
  if (input.json) io.stdout.write(`${JSON.stringify({ session: input.file, ...report })}\n`);
  else io.stdout.write(formatReplayReport(input.file, report));
  return 0;
}
