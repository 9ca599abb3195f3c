import { sanitizeTerminalText } from "../format/sanitize-terminal-text";
import type { TrustAnswer } from "../trust/decide-project-trust";
import { describeProjectConfig, type ProjectConfig } from "../trust/find-project-config";

/**
 * The interactive trust question, asked once per folder before anything of the project is loaded:
 * names the folder and what its configuration holds (shown inert: a folder name may carry escape
 * sequences), and says what trusting allows. `t` / `trust` / `y` / `yes` trusts; anything else
 * (Enter, the end of input) is "not now".
 */
export async function askProjectTrust(
  project: ProjectConfig,
  ask: (question: string) => Promise<string>,
  print: (line: string) => void,
): Promise<TrustAnswer> {
  print(
    sanitizeTerminalText(
      `This folder has its own arbor configuration: ${describeProjectConfig(project)} in ${project.folder}.`,
    ),
  );
  print(
    "Trusting it lets that configuration run extension code as you and choose the endpoints of its own models. Only trust folders whose contents you trust.",
  );
  const answer = await ask(
    "Trust this folder? [t]rust / [N]ot now (the answer is remembered; `arbor trust` or `arbor untrust` change it): ",
  );
  return /^(t|trust|y|yes)$/i.test(answer) ? "trust" : "not-now";
}
