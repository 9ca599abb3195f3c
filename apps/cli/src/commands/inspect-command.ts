import fs from "node:fs";
import { resolveArborHome } from "@arbor/runtime/settings";
import { assembleSystemPrompt } from "../agent/assemble-system-prompt";
import { describeSystemPrompt, summarizeSystemPrompt } from "../agent/describe-system-prompt";
import type { CliIo } from "../cli-io";
import { describeModel } from "../format/describe-model";
import { safeJsonStringifyWithRawFields } from "../format/safe-json-stringify";
import { buildInspectReport } from "../inspect/build-inspect-report";
import { formatInspectReport } from "../inspect/format-inspect-report";
import { refuseDamagedSession } from "../sessions/open-session-file";
import { openSessionLocation } from "../sessions/open-session-location";
import { loadOfflineConfig } from "../trust/load-offline-config";
import type { InspectInput } from "../usage/inspect-usage";
import { usageError } from "../usage/usage-error";
import { resolveOfflineCompaction } from "./resolve-offline-compaction";

/** The session's own folder when it still exists, else the current folder. */
function systemPromptFolder(sessionCwd: string | undefined, io: CliIo): string {
  if (sessionCwd !== undefined && fs.statSync(sessionCwd, { throwIfNoEntry: false })?.isDirectory()) {
    return sessionCwd;
  }
  return io.cwd ?? process.cwd();
}

/**
 * `arbor inspect <session.jsonl>`: the tree position, the projected context with token estimates and
 * the next compaction's cut; one JSON object with `--json`. Opens the file read-only (no lock, no
 * change) and lazily: it reads and checks only what the report is built from (the path's context
 * since the latest compaction, the settings entries; the path itself from the light records), and
 * refuses the file when a problem is found there (or by the open's scan of every line's start); the
 * report says how many lines were checked (`arbor check` checks them all). Returns the exit code;
 * throws user errors for `reportError`.
 */
export async function runInspectCommand(command: InspectInput, io: CliIo): Promise<number> {
  const { store, rawHeader } = await openSessionLocation(command.file, {
    readOnly: true,
    arborHome: resolveArborHome(io.env ?? process.env),
    validate: "lazy",
  });
  try {
    const leafId = command.leafId ?? store.leafId;
    if (command.leafId !== undefined && store.getEntry(command.leafId) === undefined) {
      throw usageError("inspect", `--leaf ${command.leafId}: no entry with this id in ${command.file}`);
    }
    const projection = store.getProjection(leafId);
    // The suffix of the path the projection draws from: all that the estimate and the compaction
    // preview depend on (the rest of the path is never read on a long session).
    const branch = leafId === null ? [] : store.getBranch(leafId, { sinceLatestCompaction: true });
    // The path's ids are not made here: --json writes them from the store's JSON text of them, the
    // text form shows how many there are.
    const path: string[] = [];
    const config = loadOfflineConfig(io, { projectModels: false });
    const compaction = resolveOfflineCompaction(command.keepRecentTokens, {
      settings: config.settings,
      fromFiles: config.fromFiles,
      model: projection.model,
      customModels: config.customModels,
    });
    const env = io.env ?? process.env;
    const promptCwd = systemPromptFolder(typeof rawHeader.cwd === "string" ? rawHeader.cwd : undefined, io);
    const systemPrompt = assembleSystemPrompt({
      cwd: promptCwd,
      arborHome: resolveArborHome(env),
      env,
      flags: command,
      warn: (line) => io.stderr.write(line),
    });
    const report = buildInspectReport({
      systemPrompt: { cwd: promptCwd, ...summarizeSystemPrompt(systemPrompt) },
      sessionId: store.sessionId,
      version: typeof rawHeader.version === "number" ? rawHeader.version : null,
      leafId,
      path,
      branch,
      projection,
      compactionSettings: compaction,
      full: command.full,
    });
    const validation = () => ({
      linesValidated: 1 + store.validatedEntryCount,
      linesInFile: 1 + store.getEntryCount(),
    });
    if (command.json) {
      refuseDamagedSession(store);
      const pathJson = leafId === null ? "[]" : store.getPathIdsJson(leafId);
      const json = safeJsonStringifyWithRawFields(
        { ...report, validation: validation() },
        { path: pathJson },
      );
      io.stdout.write(`${json}\n`);
      return 0;
    }
    const labels = [...store.getLabels()].map(([targetId, resolved]) => ({
      targetId,
      label: resolved.label,
    }));
    const name = store.getSessionName();
    refuseDamagedSession(store);
    io.stdout.write(
      formatInspectReport(
        { ...report, validation: validation() },
        {
          file: command.file,
          name,
          entryCount: store.getEntryCount(),
          pathLength: leafId === null ? 0 : store.getPathLength(leafId),
          leafSource: command.leafId === undefined ? "file" : "flag",
          model: describeModel(projection.model),
          thinkingLevel: projection.thinkingLevel,
          labels,
          keepRecentTokensSource: compaction.keepRecentTokensSource,
          messages: projection.messages,
          width: (io.stdout as { columns?: number }).columns || 100,
          systemPromptLines: describeSystemPrompt(systemPrompt),
        },
      ),
    );
    return 0;
  } finally {
    store.close();
  }
}
