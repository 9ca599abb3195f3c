import type { Settings } from "@arbor/runtime";
import { createBashTool } from "./bash-tool";
import type { CodingTool } from "./coding-tool";
import { createEditTool } from "./edit-tool";
import { PathGuard } from "./path-guard";
import { createReadTool } from "./read-tool";
import { createWriteTool } from "./write-tool";

/** The built-in coding tools and the guard that decides which paths the file tools may touch. */
export interface CodingTools {
  /** read, write, edit, bash. */
  tools: CodingTool[];
  /** Set its `confirm` to ask the user about paths outside the allowed folders (interactive mode). */
  guard: PathGuard;
}

/**
 * The four built-in coding tools (read, write, edit, bash), all rooted at `cwd`, with the limits of
 * the `tools` settings (`bashTimeoutSeconds`, `allowedFolders`).
 */
export function createCodingTools(cwd: string, settings: Settings["tools"] = {}): CodingTools {
  const guard = new PathGuard({ cwd, allowedFolders: settings.allowedFolders ?? [] });
  const bashOptions =
    settings.bashTimeoutSeconds !== undefined ? { defaultTimeoutSeconds: settings.bashTimeoutSeconds } : {};
  return {
    tools: [
      createReadTool(guard),
      createWriteTool(guard),
      createEditTool(guard),
      createBashTool(cwd, bashOptions),
    ],
    guard,
  };
}
