import { type ChildProcess, spawn, spawnSync } from "node:child_process";
import * as nodeFs from "node:fs";
import { existsSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { hostname } from "node:os";
import { fileURLToPath } from "node:url";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { header, jsonl, message, storageErrorOf, tempDir } from "./__fixtures__/storage-fixtures";
import { createJsonlStorage } from "./create-jsonl-storage";
import type { StorageFs } from "./internal/storage-fs";
import type { JsonlStorageOptions } from "./jsonl-storage-options";

const CHILD = fileURLToPath(new URL("./__fixtures__/lock-child.ts", import.meta.url));
const PACKAGE_DIR = fileURLToPath(new URL("../..", import.meta.url));

let tmp: ReturnType<typeof tempDir>;
const children: ChildProcess[] = [];
beforeEach(() => {
  tmp = tempDir();
});
afterEach(() => {
  for (const child of children.splice(0)) if (child.exitCode === null) child.kill("SIGKILL");
  tmp.cleanup();
});

/** Starts the child script and resolves with its first JSON line of output. */
function runChild(
  path: string,
  mode: "hold" | "try",
): { child: ChildProcess; first: Promise<Record<string, unknown>> } {
  const child = spawn(process.execPath, ["--import", "tsx", CHILD, path, mode], {
    cwd: PACKAGE_DIR,
    stdio: ["ignore", "pipe", "pipe"],
  });
  children.push(child);
  const first = new Promise<Record<string, unknown>>((resolve, reject) => {
    let out = "";
    let err = "";
    child.stdout?.on("data", (d: Buffer) => {
      out += d.toString();
      const nl = out.indexOf("\n");
      if (nl >= 0) resolve(JSON.parse(out.slice(0, nl)));
    });
    child.stderr?.on("data", (d: Buffer) => {
      err += d.toString();
    });
    child.on("exit", (code) => reject(new Error(`child exited (${code}) before answering: ${err}`)));
  });
  return { child, first };
}

function exited(child: ChildProcess): Promise<void> {
  return new Promise((resolve) =>
    child.exitCode !== null || child.signalCode !== null ? resolve() : child.on("exit", () => resolve()),
  );
}

describe("writer lock", () => {
  it("gives a second writer in another process SESSION_LOCKED", async () => {
    const path = tmp.file();
    writeFileSync(path, jsonl(header(), message("a", null)));
    const storage = createJsonlStorage(path);
    storage.load();
    const answer = await runChild(path, "try").first;
    expect(answer.code).toBe("SESSION_LOCKED");
    expect(String(answer.message)).toContain(path);
    expect(answer.holderPid).toBe(process.pid);
    storage.close();
    expect(existsSync(`${path}.lock`)).toBe(false);
    expect((await runChild(path, "try").first).ok).toBe(true);
  }, 20_000);

  it("refuses while another live process holds the lock, and recovers it once that process is killed", async () => {
    const path = tmp.file();
    const { child, first } = runChild(path, "hold");
    const held = await first;
    expect(held.held).toBe(true);
    const error = storageErrorOf(() => createJsonlStorage(path).load());
    expect(error.code).toBe("SESSION_LOCKED");
    expect(error.holder?.pid).toBe(child.pid);
    expect(error.lockPath).toBe(`${path}.lock`);

    child.kill("SIGKILL"); // no exit handler runs: the lock file stays behind
    await exited(child);
    expect(JSON.parse(readFileSync(`${path}.lock`, "utf8")).pid).toBe(child.pid);
    const storage = createJsonlStorage(path);
    storage.load();
    expect(JSON.parse(readFileSync(`${path}.lock`, "utf8")).pid).toBe(process.pid);
    storage.append([header(), message("a", null)]);
    storage.close();
  }, 20_000);

  it("takes over a stale lock file that names a dead pid", () => {
    const path = tmp.file();
    const dead = spawnSync(process.execPath, ["-e", "process.pid"]).pid as number;
    writeFileSync(
      `${path}.lock`,
      JSON.stringify({
        pid: dead,
        hostname: hostname(),
        acquiredAt: "2020-01-01T00:00:00.000Z",
        token: "old",
      }),
    );
    const storage = createJsonlStorage(path);
    storage.load();
    expect(JSON.parse(readFileSync(`${path}.lock`, "utf8")).token).not.toBe("old");
    storage.close();
    expect(existsSync(`${path}.lock`)).toBe(false);
  });

  it("treats a live pid with a different process start as a reused pid (stale)", () => {
    const path = tmp.file();
    writeFileSync(
      `${path}.lock`,
      JSON.stringify({
        pid: process.pid,
        hostname: hostname(),
        processStart: "1",
        acquiredAt: "",
        token: "old",
      }),
    );
    const storage = createJsonlStorage(path);
    if (existsSync(`/proc/${process.pid}/stat`)) {
      storage.load();
      storage.close();
    } else {
      expect(storageErrorOf(() => storage.load()).code).toBe("SESSION_LOCKED");
    }
  });

  it("refuses a second writer in the same process, allows read-only readers", () => {
    const path = tmp.file();
    const writer = createJsonlStorage(path);
    writer.load();
    expect(storageErrorOf(() => createJsonlStorage(path).load()).code).toBe("SESSION_LOCKED");
    const reader = createJsonlStorage(path, { readOnly: true });
    writer.append([header(), message("a", null)]);
    expect(reader.load().records.map((r) => r.id)).toEqual(["a"]);
    reader.close();
    writer.close();
  });

  it("never signals a pid that is not positive (a forged lock cannot name process groups)", () => {
    const path = tmp.file();
    writeFileSync(
      `${path}.lock`,
      JSON.stringify({ pid: -1, hostname: hostname(), acquiredAt: "", token: "forged" }),
    );
    const storage = createJsonlStorage(path);
    storage.load();
    storage.close();
  });

  it("never lets the lock file be seen without its holder: it is linked into place already written", () => {
    const path = tmp.file();
    const lockPath = `${path}.lock`;
    const seen: string[] = [];
    const fs: StorageFs = {
      ...nodeFs,
      openSync: ((file: nodeFs.PathLike, ...rest: unknown[]) => {
        if (String(file) === lockPath) seen.push("opened lock path directly");
        return (nodeFs.openSync as (...a: unknown[]) => number)(file, ...rest);
      }) as typeof nodeFs.openSync,
      linkSync: (from, to) => {
        if (String(to) === lockPath)
          seen.push(`link holder pid ${JSON.parse(readFileSync(from, "utf8")).pid}`);
        nodeFs.linkSync(from, to);
      },
    };
    const storage = createJsonlStorage(path, { fs } as JsonlStorageOptions);
    storage.load();
    expect(seen).toEqual([`link holder pid ${process.pid}`]);
    expect(JSON.parse(readFileSync(lockPath, "utf8")).pid).toBe(process.pid);
    const error = storageErrorOf(() => createJsonlStorage(path, { fs } as JsonlStorageOptions).load());
    expect(error.code).toBe("SESSION_LOCKED");
    expect(error.holder?.pid).toBe(process.pid);
    storage.close();
    expect(readdirSync(tmp.dir).filter((name) => name.includes(".lock"))).toEqual([]);
  });

  it("falls back to an exclusive create on file systems without hard links", () => {
    const path = tmp.file();
    const fs: StorageFs = {
      ...nodeFs,
      linkSync: () => {
        throw Object.assign(new Error("EPERM: operation not permitted, link"), { code: "EPERM" });
      },
    };
    const storage = createJsonlStorage(path, { fs } as JsonlStorageOptions);
    storage.load();
    expect(JSON.parse(readFileSync(`${path}.lock`, "utf8")).pid).toBe(process.pid);
    expect(storageErrorOf(() => createJsonlStorage(path, { fs } as JsonlStorageOptions).load()).code).toBe(
      "SESSION_LOCKED",
    );
    expect(readdirSync(tmp.dir).filter((name) => name.includes(".lock.new-"))).toEqual([]);
    storage.close();
    expect(existsSync(`${path}.lock`)).toBe(false);
  });
});
