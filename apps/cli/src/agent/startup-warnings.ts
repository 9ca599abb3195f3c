import type { AgentSession } from "@arbor/runtime";
import { formatInteger } from "../format/format-number";
import type { AgentEnvironment } from "./prepare-agent";

/**
 * The one-line warning (ending with a newline) when the compaction settings do not fit the model's
 * context window and the session uses scaled values instead (see `fitCompactionSettings`), or
 * `undefined` when they fit.
 */
export function compactionFitWarning(session: AgentSession): string | undefined {
  const effective = session.getCompactionSettings();
  const configured = effective.scaledFrom;
  if (configured === undefined) return undefined;
  const model = `${session.model.provider}/${session.model.id}`;
  return `arbor: warning: compaction.reserveTokens ${formatInteger(configured.reserveTokens)} + keepRecentTokens ${formatInteger(configured.keepRecentTokens)} do not fit the ${formatInteger(configured.contextWindow)}-token context window of ${model}; using ${formatInteger(effective.reserveTokens)} and ${formatInteger(effective.keepRecentTokens)} (compaction above ${formatInteger(configured.contextWindow - effective.reserveTokens)} tokens)\n`;
}

/**
 * The warnings an agent mode prints once, after its first session started (so that the extensions
 * have read their settings): compaction settings scaled to fit the model, and each top-level
 * settings key that is not an Arbor setting and that no extension read (a typo: it has no effect).
 * One line each, ending with a newline.
 */
export function startupWarnings(environment: AgentEnvironment, session: AgentSession): string[] {
  const warnings: string[] = [];
  const fit = compactionFitWarning(session);
  if (fit !== undefined) warnings.push(fit);
  for (const { filePath, key } of environment.unknownSettingsKeys) {
    if (environment.settingsKeysRead.has(key)) continue;
    warnings.push(
      `arbor: warning: ${filePath}: unknown setting ${JSON.stringify(key)} (not an Arbor setting, and no extension read it): it has no effect\n`,
    );
  }
  return warnings;
}
