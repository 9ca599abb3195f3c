import { createBashTool } from "./bash-tool";
import type { CodingTool } from "./coding-tool";
import { createEditTool } from "./edit-tool";
import { createReadTool } from "./read-tool";
import { createWriteTool } from "./write-tool";

/** The four built-in coding tools (read, write, edit, bash), all rooted at `cwd`. */
export function createCodingTools(cwd: string): CodingTool[] {
  return [createReadTool(cwd), createWriteTool(cwd), createEditTool(cwd), createBashTool(cwd)];
}
