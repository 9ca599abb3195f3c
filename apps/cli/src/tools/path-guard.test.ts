import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { type OutsideAccessAnswer, type OutsideAccessRequest, PathGuard } from "./path-guard";
import { createToolOutputFile } from "./tool-output-folder";

let root: string;
let project: string;
let outside: string;
beforeEach(() => {
  root = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), "arbor-guard-")));
  project = path.join(root, "project");
  outside = path.join(root, "outside");
  fs.mkdirSync(path.join(project, "src"), { recursive: true });
  fs.mkdirSync(outside);
  fs.writeFileSync(path.join(outside, "secret.txt"), "secret");
});
afterEach(() => fs.rmSync(root, { recursive: true, force: true }));

async function refusal(guard: PathGuard, filePath: string, access: "read" | "write" = "read") {
  return guard.resolve("read", filePath, access).then(
    (resolved) => `allowed ${resolved}`,
    (error: { code?: string; message: string }) => `${error.code}: ${error.message}`,
  );
}

describe("PathGuard", () => {
  it("allows the working folder, paths that do not exist yet, and symlinks that stay inside", async () => {
    const guard = new PathGuard({ cwd: project });
    fs.symlinkSync(path.join(project, "src"), path.join(project, "alias"));
    expect(await guard.resolve("read", "src/a.ts", "read")).toBe(path.join(project, "src/a.ts"));
    expect(await guard.resolve("write", "new/deep/b.ts", "write")).toBe(path.join(project, "new/deep/b.ts"));
    expect(await guard.resolve("read", "alias/a.ts", "read")).toBe(path.join(project, "src/a.ts"));
    expect(await guard.resolve("read", `${project}/src/../src/a.ts`, "read")).toBe(
      path.join(project, "src/a.ts"),
    );
  });

  it("refuses ../, absolute paths and ~ outside the folder when nobody can be asked", async () => {
    const guard = new PathGuard({ cwd: project });
    expect(await refusal(guard, "../outside/secret.txt")).toBe(
      `TOOL_PATH_OUTSIDE_FOLDER: read: ../outside/secret.txt is outside the working folder ${project}. Only the working folder and the folders of the "tools.allowedFolders" setting can be used without asking, and nobody can be asked here; use a path inside the working folder`,
    );
    expect(await refusal(guard, path.join(outside, "secret.txt"))).toMatch(/^TOOL_PATH_OUTSIDE_FOLDER/);
    expect(await refusal(guard, "~/.ssh/id_ed25519")).toMatch(/^TOOL_PATH_OUTSIDE_FOLDER/);
    expect(await refusal(guard, "/")).toMatch(/^TOOL_PATH_OUTSIDE_FOLDER/);
    // A sibling whose name starts with the folder's name is not inside it.
    fs.mkdirSync(`${project}-evil`);
    expect(await refusal(guard, `${project}-evil/x`, "write")).toMatch(/^TOOL_PATH_OUTSIDE_FOLDER/);
  });

  it("resolves symlinks inside the folder that point out of it, dangling ones and linked parents included", async () => {
    const guard = new PathGuard({ cwd: project });
    fs.symlinkSync(path.join(outside, "secret.txt"), path.join(project, "link.txt"));
    fs.symlinkSync(outside, path.join(project, "src", "out"));
    fs.symlinkSync(path.join(outside, "not-yet.txt"), path.join(project, "dangling.txt"));
    expect(await refusal(guard, "link.txt")).toContain(
      `link.txt (really ${outside}/secret.txt) is outside the working folder`,
    );
    expect(await refusal(guard, "src/out/new.txt", "write")).toContain(`(really ${outside}/new.txt)`);
    expect(await refusal(guard, "dangling.txt", "write")).toContain(`(really ${outside}/not-yet.txt)`);
  });

  it("allows the folders of the setting (~ expanded) and, for reading only, arbor's tool output folder", async () => {
    const guard = new PathGuard({ cwd: project, allowedFolders: [outside] });
    expect(await guard.resolve("read", path.join(outside, "secret.txt"), "read")).toBe(
      path.join(outside, "secret.txt"),
    );
    const home = new PathGuard({ cwd: project, allowedFolders: ["~"] });
    expect(await home.resolve("read", "~/x", "read")).toBe(path.join(fs.realpathSync(os.homedir()), "x"));
    const spill = createToolOutputFile("guard-test");
    fs.closeSync(spill.fd);
    expect(await new PathGuard({ cwd: project }).resolve("read", spill.path, "read")).toBe(
      fs.realpathSync(spill.path),
    );
    expect(await refusal(new PathGuard({ cwd: project }), spill.path, "write")).toMatch(
      /^TOOL_PATH_OUTSIDE_FOLDER/,
    );
  });

  it("asks through confirm, one question at a time, and remembers a folder the user allowed", async () => {
    const guard = new PathGuard({ cwd: project });
    const asked: OutsideAccessRequest[] = [];
    const answers: OutsideAccessAnswer[] = ["deny", "once", "folder"];
    let open = 0;
    guard.confirm = async (request) => {
      asked.push(request);
      open += 1;
      expect(open).toBe(1);
      await new Promise((resolve) => setTimeout(resolve, 10));
      open -= 1;
      return answers.shift() ?? "deny";
    };
    const secret = path.join(outside, "secret.txt");
    expect(await refusal(guard, secret)).toBe(
      `TOOL_PATH_OUTSIDE_FOLDER: read: ${secret} is outside the working folder ${project}, and the user did not allow it`,
    );
    expect(await guard.resolve("read", secret, "read")).toBe(secret);
    const [first, second] = await Promise.all([
      guard.resolve("write", path.join(outside, "a.txt"), "write"),
      guard.resolve("write", path.join(outside, "b.txt"), "write"),
    ]);
    expect([first, second]).toEqual([path.join(outside, "a.txt"), path.join(outside, "b.txt")]);
    // The third question allowed the folder, so the other parallel call was not asked (either may come first).
    expect(asked.map((request) => [request.tool, request.access, path.basename(request.realPath)])).toEqual([
      ["read", "read", "secret.txt"],
      ["read", "read", "secret.txt"],
      ["write", "write", expect.stringMatching(/^[ab]\.txt$/)],
    ]);
    expect(await guard.resolve("read", secret, "read")).toBe(secret);
    expect(asked).toHaveLength(3);
  });
});
