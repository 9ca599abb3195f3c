import path from "node:path";
import { sanitizeTerminalText } from "../format/sanitize-terminal-text";
import type { OutsideAccessAnswer, OutsideAccessRequest } from "../tools/path-guard";
import type { InteractiveContext } from "./interactive-context";

/**
 * Asks the user whether a file tool may use a path outside the working folder (the path guard's
 * `confirm` in the interactive mode): `y` allows this call, `a` the path's folder for the rest of the
 * run, anything else (Enter, Ctrl-C, the end of input) refuses. The path comes from the model, so it is
 * shown inert.
 */
export async function askOutsideAccess(
  context: Pick<InteractiveContext, "ask" | "style" | "renderer">,
  request: OutsideAccessRequest,
): Promise<OutsideAccessAnswer> {
  context.renderer.stopSpinner();
  const target = sanitizeTerminalText(request.realPath);
  const folder = sanitizeTerminalText(path.dirname(request.realPath));
  const answer = await context.ask(
    context.style.yellow(
      `${sanitizeTerminalText(request.tool)} wants to ${request.access} ${target}, outside the working folder. Allow? [y]es once, [a]lways for ${folder} in this run, [N]o: `,
    ),
  );
  if (/^(y|yes)$/i.test(answer)) return "once";
  if (/^(a|always)$/i.test(answer)) return "folder";
  return "deny";
}
