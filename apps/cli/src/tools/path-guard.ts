import fs from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { resolveToolPath } from "./tool-arguments";
import { ToolError } from "./tool-error";
import { existingToolOutputFolder } from "./tool-output-folder";

/** A file tool wants a path outside the folders it may use. */
export interface OutsideAccessRequest {
  tool: string;
  /** The path as the model gave it. */
  path: string;
  /** The path with symlinks resolved (what would really be touched). */
  realPath: string;
  access: "read" | "write";
}

/** The user's answer: this call only, this folder for the rest of the run, or no. */
export type OutsideAccessAnswer = "once" | "folder" | "deny";

/** What a {@link PathGuard} allows. */
export interface PathGuardOptions {
  /** The working folder. */
  cwd: string;
  /** Further folders allowed without asking (absolute, `~` or `~/…`; setting `tools.allowedFolders`). */
  allowedFolders?: readonly string[];
}

const MAX_LINK_DEPTH = 40;

/**
 * The real path of `target` with every symlink resolved, also when it (or its parent folders) does
 * not exist yet: the missing tail is appended to the real path of the deepest existing folder, and
 * a dangling symlink resolves to where it points.
 */
async function realPathOf(target: string, depth = 0): Promise<string> {
  if (depth > MAX_LINK_DEPTH) throw new Error(`Too many levels of symbolic links: ${target}`);
  try {
    return await fs.realpath(target);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code !== "ENOENT" && code !== "ENOTDIR") throw error;
  }
  const link = await fs.readlink(target).catch(() => undefined);
  if (link !== undefined) return realPathOf(path.resolve(path.dirname(target), link), depth + 1);
  const parent = path.dirname(target);
  if (parent === target) return target;
  return path.join(await realPathOf(parent, depth + 1), path.basename(target));
}

function isInside(candidate: string, folder: string): boolean {
  if (candidate === folder) return true;
  const relative = path.relative(folder, candidate);
  return (
    relative !== "" &&
    !relative.startsWith(`..${path.sep}`) &&
    relative !== ".." &&
    !path.isAbsolute(relative)
  );
}

function expandHome(folder: string): string {
  if (folder === "~") return os.homedir();
  return folder.startsWith("~/") ? path.join(os.homedir(), folder.slice(2)) : folder;
}

/**
 * Decides which paths `read`, `write` and `edit` may touch: the working folder, the folders of the
 * `tools.allowedFolders` setting and (for `read`) arbor's own tool output folder, all compared after
 * resolving symlinks (a link inside the folder that points out of it is outside). Anything else needs
 * the user's yes through `confirm` (the interactive mode sets it; questions are asked one at a time);
 * without `confirm` (print mode) it is refused.
 */
export class PathGuard {
  /** Asks the user about a path outside the allowed folders; unset means refuse. */
  confirm: ((request: OutsideAccessRequest) => Promise<OutsideAccessAnswer>) | undefined;
  private readonly approved: string[] = [];
  private questions: Promise<unknown> = Promise.resolve();

  constructor(private readonly options: PathGuardOptions) {}

  /** The working folder the tools resolve relative paths against. */
  get cwd(): string {
    return this.options.cwd;
  }

  /**
   * Resolves `filePath` for `tool` and returns the real path to operate on (symlinks resolved).
   * @throws ToolError `TOOL_PATH_OUTSIDE_FOLDER` when the path is outside the allowed folders and the
   * user did not allow it (or could not be asked).
   */
  async resolve(tool: string, filePath: string, access: "read" | "write"): Promise<string> {
    const absolute = resolveToolPath(this.options.cwd, filePath);
    const realPath = await realPathOf(absolute);
    if (await this.isAllowed(realPath, access)) return realPath;
    const request: OutsideAccessRequest = { tool, path: filePath, realPath, access };
    const confirm = this.confirm;
    const cwd = await realPathOf(this.options.cwd);
    const where = `${realPath === absolute ? filePath : `${filePath} (really ${realPath})`} is outside the working folder ${cwd}`;
    if (confirm === undefined) {
      throw new ToolError(
        "TOOL_PATH_OUTSIDE_FOLDER",
        filePath,
        `${tool}: ${where}. Only the working folder and the folders of the "tools.allowedFolders" setting can be used without asking, and nobody can be asked here; use a path inside the working folder`,
      );
    }
    const answer = await this.ask(request, confirm);
    if (answer === "deny") {
      throw new ToolError(
        "TOOL_PATH_OUTSIDE_FOLDER",
        filePath,
        `${tool}: ${where}, and the user did not allow it`,
      );
    }
    return realPath;
  }

  private async isAllowed(realPath: string, access: "read" | "write"): Promise<boolean> {
    const folders = [this.options.cwd, ...(this.options.allowedFolders ?? []).map(expandHome)];
    const output = existingToolOutputFolder();
    if (access === "read" && output !== undefined) folders.push(output);
    for (const folder of folders) {
      if (isInside(realPath, await realPathOf(path.resolve(folder)))) return true;
    }
    return this.approved.some((folder) => isInside(realPath, folder));
  }

  /** Asks one question at a time; a parallel call for an already approved folder is not asked again. */
  private ask(
    request: OutsideAccessRequest,
    confirm: (request: OutsideAccessRequest) => Promise<OutsideAccessAnswer>,
  ): Promise<OutsideAccessAnswer> {
    const answer = this.questions.then(async (): Promise<OutsideAccessAnswer> => {
      if (this.approved.some((folder) => isInside(request.realPath, folder))) return "once";
      const given = await confirm(request);
      if (given === "folder") {
        const stat = await fs.stat(request.realPath).catch(() => undefined);
        this.approved.push(stat?.isDirectory() ? request.realPath : path.dirname(request.realPath));
      }
      return given;
    });
    this.questions = answer.catch(() => undefined);
    return answer;
  }
}
