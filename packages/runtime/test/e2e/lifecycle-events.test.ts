import fs from "node:fs";
import { defineExtension } from "@arbor/extensions";
import { textReply } from "@arbor/providers/testing";
import { afterEach, describe, expect, it, vi } from "vitest";
import type { SessionBeforeForkResult } from "../../src/events/runtime-hooks";
import type { RuntimeExtensionApi } from "../../src/extensions/runtime-extension-api";
import {
  closeHarnesses,
  createHarness,
  type HarnessOptions,
  readFileEntries,
  scriptReplies,
} from "../helpers/harness";

afterEach(async () => {
  vi.restoreAllMocks();
  await closeHarnesses();
});

/** What the recording extension saw: the event, and the file of the session it was installed in. */
interface Seen {
  type: string;
  file: string | undefined;
  event: Record<string, unknown>;
}

/**
 * An extension that records the lifecycle events (and `setup`) of every session it is installed in;
 * `beforeFork` decides what `session_before_fork` returns.
 */
function recorder(
  log: Seen[],
  beforeFork: () => SessionBeforeForkResult | undefined | Promise<SessionBeforeForkResult | undefined> = () =>
    undefined,
) {
  return defineExtension<RuntimeExtensionApi>({
    apiVersion: 1,
    name: "recorder",
    setup(api) {
      const file = () => api.session.view.path;
      log.push({ type: "setup", file: file(), event: {} });
      const record = (event: { type: string }) => {
        log.push({ type: event.type, file: file(), event: { ...event } });
      };
      api.on("session_start", record);
      api.on("session_shutdown", record);
      api.on("session_info_changed", record);
      api.on("session_before_fork", (event) => {
        record(event);
        return beforeFork();
      });
    },
  });
}

/** A session with two prompts answered; returns the harness and its entries. */
async function twoTurns(options: HarnessOptions) {
  const h = await createHarness(options);
  scriptReplies(h.server, [textReply("one"), textReply("two"), textReply("after")]);
  await h.session.prompt("first");
  await h.session.prompt("second");
  return { h, entries: h.fileEntries() };
}

describe("session_start and session_shutdown", () => {
  it("start follows setup with reason startup; dispose emits shutdown (reason, target) before uninstalling", async () => {
    const log: Seen[] = [];
    const saver = defineExtension<RuntimeExtensionApi>({
      apiVersion: 1,
      name: "saver",
      setup(api) {
        api.on("session_start", async () => {
          await api.session.appendCustomEntry("saver-state", { at: "start" });
        });
        api.on("session_shutdown", async (event) => {
          await api.session.appendCustomEntry("saver-state", { at: "shutdown", reason: event.reason });
        });
      },
    });
    const h = await createHarness({ extensions: [recorder(log), saver] });
    expect(log).toEqual([
      { type: "setup", file: h.file, event: {} },
      { type: "session_start", file: h.file, event: { type: "session_start", reason: "startup" } },
    ]);
    expect(h.store.getEntries().map((entry) => entry.type === "custom" && entry.data)).toEqual([
      { at: "start" },
    ]);

    await h.session.dispose("new", "/sessions/next.jsonl");
    await h.session.dispose();
    expect(log.slice(2)).toEqual([
      {
        type: "session_shutdown",
        file: h.file,
        event: { type: "session_shutdown", reason: "new", targetSessionFile: "/sessions/next.jsonl" },
      },
    ]);
    expect(readFileEntries(h.file).map((entry) => entry.type === "custom" && entry.data)).toEqual([
      { at: "start" },
      { at: "shutdown", reason: "new" },
    ]);
    await expect(h.session.setSessionName("late")).rejects.toMatchObject({ code: "SESSION_DISPOSED" });
  });

  it("startReason and previousSessionFile reach session_start; dispose() defaults to quit", async () => {
    const log: Seen[] = [];
    const h = await createHarness({
      extensions: [recorder(log)],
      startReason: "resume",
      previousSessionFile: "/sessions/older.jsonl",
    });
    await h.session.dispose();
    expect(log.map((seen) => seen.event).slice(1)).toEqual([
      { type: "session_start", reason: "resume", previousSessionFile: "/sessions/older.jsonl" },
      { type: "session_shutdown", reason: "quit" },
    ]);
  });

  it("shutdown waits for the running prompt to be aborted and written", async () => {
    const log: Seen[] = [];
    const h = await createHarness({ extensions: [recorder(log)] });
    scriptReplies(h.server, [
      textReply("a long answer that streams slowly", { eventDelayMs: 40, chunkSize: 2 }),
    ]);
    const running = h.session.prompt("talk");
    await vi.waitFor(() => expect(h.eventTypes()).toContain("message_update"), { timeout: 10_000 });
    await h.session.dispose();
    expect((await running).stopReason).toBe("aborted");
    expect(log.map((seen) => seen.type)).toEqual(["setup", "session_start", "session_shutdown"]);
    expect(readFileEntries(h.file).map((entry) => entry.type === "message" && entry.message.role)).toEqual([
      "user",
      "assistant",
    ]);
  });

  it("bad reasons are typed errors; a throwing session_start handler is isolated and warned about", async () => {
    await expect(createHarness({ startReason: "boot" as never })).rejects.toMatchObject({
      code: "INVALID_ARGUMENT",
    });
    const warn = vi.spyOn(process, "emitWarning").mockImplementation(() => {});
    const broken = defineExtension<RuntimeExtensionApi>({
      apiVersion: 1,
      name: "broken-start",
      setup(api) {
        api.on("session_start", () => {
          throw new Error("start exploded");
        });
      },
    });
    const h = await createHarness({ extensions: [broken] });
    expect(warn).toHaveBeenCalledWith(
      expect.objectContaining({ code: "HOOK_FAILED", hookName: "session_start" }),
    );
    await expect(h.session.dispose("later" as never)).rejects.toMatchObject({ code: "INVALID_ARGUMENT" });
    scriptReplies(h.server, [textReply("fine")]);
    expect((await h.session.prompt("still works")).lastAssistant?.stopReason).toBe("stop");
  });
});

describe("fork lifecycle", () => {
  it("the new session starts with reason fork from the original file; the original gets no shutdown", async () => {
    const log: Seen[] = [];
    const { h, entries } = await twoTurns({ extensions: [recorder(log)] });
    const second = entries[2]?.id as string;
    const { session, store } = await h.session.fork({ entryId: second });
    try {
      const forkedFile = store.path as string;
      expect(log.slice(2)).toEqual([
        {
          type: "session_before_fork",
          file: h.file,
          event: { type: "session_before_fork", entryId: second, position: "before" },
        },
        { type: "setup", file: forkedFile, event: {} },
        {
          type: "session_start",
          file: forkedFile,
          event: { type: "session_start", reason: "fork", previousSessionFile: h.file },
        },
      ]);
      expect(await h.session.prompt("the original goes on")).toMatchObject({
        lastAssistant: { stopReason: "stop" },
      });
      await session.dispose("fork");
      expect(log.filter((seen) => seen.type === "session_shutdown")).toEqual([
        { type: "session_shutdown", file: forkedFile, event: { type: "session_shutdown", reason: "fork" } },
      ]);
    } finally {
      await session.dispose();
      store.close();
    }
  });

  it("a clone reports the leaf and position at", async () => {
    const log: Seen[] = [];
    const { h, entries } = await twoTurns({ extensions: [recorder(log)] });
    const { session, store } = await h.session.fork();
    await session.dispose();
    store.close();
    expect(log.find((seen) => seen.type === "session_before_fork")?.event).toEqual({
      type: "session_before_fork",
      entryId: entries.at(-1)?.id,
      position: "at",
    });
  });

  it("session_before_fork cancel: FORK_CANCELLED, no new file, later handlers skipped, the session unchanged", async () => {
    const log: Seen[] = [];
    const later: string[] = [];
    const after = defineExtension<RuntimeExtensionApi>({
      apiVersion: 1,
      name: "after",
      setup(api) {
        api.on("session_before_fork", (event) => {
          later.push(event.entryId);
          return undefined;
        });
      },
    });
    const { h, entries } = await twoTurns({
      extensions: [recorder(log, () => ({ cancel: true, skipConversationRestore: true })), after],
    });
    const filesBefore = fs.readdirSync(h.dir);
    const bytesBefore = fs.readFileSync(h.file);
    const leafBefore = h.store.leafId;
    await expect(h.session.fork({ entryId: entries[2]?.id as string })).rejects.toMatchObject({
      code: "FORK_CANCELLED",
      entryId: entries[2]?.id,
    });
    expect(fs.readdirSync(h.dir)).toEqual(filesBefore);
    expect(fs.readFileSync(h.file).equals(bytesBefore)).toBe(true);
    expect(h.store.leafId).toBe(leafBefore);
    expect(later).toEqual([]);
    expect(log.filter((seen) => seen.type === "session_start")).toHaveLength(1);
    expect((await h.session.prompt("still here")).lastAssistant?.stopReason).toBe("stop");
  });

  it("abort() during session_before_fork cancels the fork", async () => {
    const waiting = defineExtension<RuntimeExtensionApi>({
      apiVersion: 1,
      name: "slow-fork-guard",
      setup(api) {
        api.on(
          "session_before_fork",
          (_event, context) =>
            new Promise((resolve) => context.signal.addEventListener("abort", () => resolve(undefined))),
        );
      },
    });
    const { h } = await twoTurns({ extensions: [waiting] });
    const filesBefore = fs.readdirSync(h.dir);
    const forking = h.session.fork();
    await vi.waitFor(() => expect(h.session.activity).toBe("fork"));
    await h.session.abort();
    await expect(forking).rejects.toMatchObject({ code: "FORK_CANCELLED" });
    expect(fs.readdirSync(h.dir)).toEqual(filesBefore);
  });

  it("a throwing session_before_fork handler is reported and the fork happens", async () => {
    const log: Seen[] = [];
    const broken = defineExtension<RuntimeExtensionApi>({
      apiVersion: 1,
      name: "broken-fork-guard",
      setup(api) {
        api.on("session_before_fork", () => {
          throw new Error("fork guard exploded");
        });
      },
    });
    const { h, entries } = await twoTurns({ extensions: [broken, recorder(log)] });
    const { session, store, selectedText } = await h.session.fork({ entryId: entries[2]?.id as string });
    try {
      expect(selectedText).toBe("second");
      expect(fs.existsSync(store.path as string)).toBe(true);
      expect(h.events).toContainEqual(
        expect.objectContaining({
          type: "hook_error",
          hookName: "session_before_fork",
          extensionId: "broken-fork-guard",
        }),
      );
      expect(log.filter((seen) => seen.type === "session_start").map((seen) => seen.event.reason)).toEqual([
        "startup",
        "fork",
      ]);
    } finally {
      await session.dispose();
      store.close();
    }
  });
});

describe("session_info_changed", () => {
  it("setSessionName writes session_info and emits the stored (trimmed) name to extensions and listeners", async () => {
    const log: Seen[] = [];
    const { h } = await twoTurns({ extensions: [recorder(log)] });
    const entry = await h.session.setSessionName("  refactor\nthe parser  ");
    expect(entry).toMatchObject({ type: "session_info", name: "refactor the parser" });
    expect(readFileEntries(h.file).at(-1)).toMatchObject({
      type: "session_info",
      id: entry.id,
      name: "refactor the parser",
    });
    expect(h.store.getSessionName()).toBe("refactor the parser");
    const expected = { type: "session_info_changed", name: "refactor the parser" };
    expect(log.filter((seen) => seen.type === "session_info_changed").map((seen) => seen.event)).toEqual([
      expected,
    ]);
    expect(h.events.filter((event) => event.type === "session_info_changed")).toEqual([expected]);

    await h.session.setSessionName("   ");
    expect(h.events.filter((event) => event.type === "session_info_changed").at(-1)).toEqual({
      type: "session_info_changed",
      name: undefined,
    });
    await expect(h.session.setSessionName(42 as never)).rejects.toMatchObject({ code: "INVALID_ARGUMENT" });
  });

  it("an extension can name the session from session_start (pi's pi.setSessionName)", async () => {
    const log: Seen[] = [];
    const namer = defineExtension<RuntimeExtensionApi>({
      apiVersion: 1,
      name: "namer",
      setup(api) {
        api.on("session_start", async () => {
          await api.session.setSessionName("named at start");
        });
      },
    });
    const h = await createHarness({ extensions: [recorder(log), namer] });
    expect(h.store.getSessionName()).toBe("named at start");
    expect(log.map((seen) => seen.type)).toEqual(["setup", "session_start", "session_info_changed"]);
  });
});
