import { describeProjectConfig, findProjectConfig, type ProjectConfig } from "./find-project-config";
import { findSavedTrust, saveFolderTrust } from "./trust-store";

/** The answer to the interactive trust question. */
export type TrustAnswer = "trust" | "not-now";

/** Why the project configuration is loaded or not. */
export type TrustSource =
  /** The folder has no project configuration: nothing to decide. */
  | "no-project-config"
  /** `--trust-project` on the command line (this run only, nothing saved). */
  | "flag"
  /** A decision saved for the folder or an ancestor (`arbor trust`, `arbor untrust`, an earlier answer). */
  | "saved"
  /** The user answered the question just now (the answer is saved). */
  | "answer"
  /** Nobody could be asked (print mode, `--json`, no terminal): untrusted for this run. */
  | "not-asked";

/** Whether to load the project configuration of the working folder, and why. */
export interface ProjectTrust {
  /** `true` when the project configuration may be loaded. */
  trusted: boolean;
  source: TrustSource;
  /** The folder whose decision applied (the folder itself or the ancestor it was saved for). */
  decidedFor?: string;
  /** What the folder holds; `undefined` when it has no project configuration. */
  project: ProjectConfig | undefined;
}

/** Options of {@link decideProjectTrust}. */
export interface DecideProjectTrustOptions {
  cwd: string;
  arborHome: string;
  /** `--trust-project` was given. */
  trustFlag?: boolean;
  /**
   * Asks the user (interactive mode on a terminal only). Absent: nobody can be asked.
   *
   * Contract: resolves with the answer; an empty or unrecognised answer should be `"not-now"`. Called
   * at most once, only when the folder has project configuration and no decision applies.
   */
  ask?: (project: ProjectConfig) => Promise<TrustAnswer>;
}

/**
 * Decides whether the project configuration of `cwd` (`.arbor/settings.json`, `.arbor/models.json`
 * and the extensions named there) is loaded. In this order: a folder without project configuration
 * needs no decision; `--trust-project` trusts for this run; a decision saved for the folder or its
 * nearest ancestor applies; otherwise `ask` (when given) asks once and its answer is saved, both
 * "trust" and "not now" (`arbor trust` changes it later); without `ask` the folder is untrusted for
 * this run and nothing is saved.
 *
 * @throws CliError `CLI_TRUST_STORE_INVALID` for an unreadable decision file; file-system errors
 * while saving an answer.
 */
export async function decideProjectTrust(options: DecideProjectTrustOptions): Promise<ProjectTrust> {
  const known = savedProjectTrust(options);
  if (known.source !== "not-asked" || options.ask === undefined || known.project === undefined) return known;
  const answer = await options.ask(known.project);
  const trusted = answer === "trust";
  saveFolderTrust(options.arborHome, known.project.folder, trusted ? "trusted" : "untrusted");
  return { trusted, source: "answer", decidedFor: known.project.folder, project: known.project };
}

/**
 * {@link decideProjectTrust} without asking: no project configuration, `--trust-project`, a saved
 * decision, else untrusted (`not-asked`). For the modes and commands that cannot ask.
 * @throws CliError `CLI_TRUST_STORE_INVALID`.
 */
export function savedProjectTrust(options: Omit<DecideProjectTrustOptions, "ask">): ProjectTrust {
  const project = findProjectConfig(options);
  if (project === undefined) return { trusted: false, source: "no-project-config", project };
  if (options.trustFlag) return { trusted: true, source: "flag", project };
  const saved = findSavedTrust(options.arborHome, project.folder);
  if (saved !== undefined) {
    return { trusted: saved.trust === "trusted", source: "saved", decidedFor: saved.folder, project };
  }
  return { trusted: false, source: "not-asked", project };
}

/**
 * The one-line warning (ending with a newline) for a run that ignores project configuration, or
 * `undefined` when nothing was ignored. `needs` narrows it to what the command would have read
 * (offline commands read settings only); `trustFlag` mentions `--trust-project` (agent modes).
 */
export function ignoredProjectWarning(
  trust: ProjectTrust,
  options: { needs: { models: boolean; extensions: boolean }; trustFlag: boolean },
): string | undefined {
  const project = trust.project;
  if (trust.trusted || project === undefined) return undefined;
  const ignored = describeProjectConfig({
    ...project,
    modelsFile: options.needs.models ? project.modelsFile : undefined,
    extensions: options.needs.extensions ? project.extensions : [],
  });
  if (ignored === "") return undefined;
  const why =
    trust.source === "not-asked"
      ? "untrusted"
      : trust.decidedFor === project.folder
        ? "not trusted"
        : `not trusted (decided for ${trust.decidedFor})`;
  const flag = options.trustFlag ? " or --trust-project for this run" : "";
  return `arbor: warning: ignored the project configuration of ${project.folder}, ${why}: ${ignored}; trust the folder with \`arbor trust\`${flag}\n`;
}
