import { describe, expect, it } from "vitest";
import { createSessionLock } from "./session-lock";

const tick = () => new Promise((resolve) => setTimeout(resolve, 5));

describe("createSessionLock", () => {
  it("runs operations one at a time, in call order", async () => {
    const lock = createSessionLock();
    const log: string[] = [];
    const op = (name: string) => async () => {
      log.push(`${name}:start`);
      await tick();
      log.push(`${name}:end`);
      return name;
    };
    const results = await Promise.all([
      lock.run("a", op("a")),
      lock.run("b", op("b")),
      lock.run("c", op("c")),
    ]);
    expect(results).toEqual(["a", "b", "c"]);
    expect(log).toEqual(["a:start", "a:end", "b:start", "b:end", "c:start", "c:end"]);
  });

  it("goes on after a rejected operation", async () => {
    const lock = createSessionLock();
    const failed = lock.run("bad", async () => {
      throw new Error("boom");
    });
    await expect(failed).rejects.toThrow("boom");
    await expect(lock.run("good", async () => 42)).resolves.toBe(42);
  });

  it("knows whether the caller is inside the operation holding it, through awaits", async () => {
    const lock = createSessionLock();
    expect(lock.isHeldByCaller()).toBe(false);
    const inside: boolean[] = [];
    await lock.run("op", async () => {
      inside.push(lock.isHeldByCaller());
      await tick();
      inside.push(lock.isHeldByCaller());
      await Promise.resolve().then(() => inside.push(lock.isHeldByCaller()));
      expect(lock.current).toBe("op");
    });
    expect(inside).toEqual([true, true, true]);
    expect(lock.current).toBeUndefined();
  });

  it("does not count work left running by an earlier operation as inside the current one", async () => {
    const lock = createSessionLock();
    let seen: boolean | undefined;
    await lock.run("first", async () => {
      // Like a hook handler abandoned after its timeout: it goes on after the operation ended.
      setTimeout(() => {
        seen = lock.isHeldByCaller();
      }, 10);
    });
    await lock.run("second", () => new Promise((resolve) => setTimeout(resolve, 40)));
    expect(seen).toBe(false);
  });

  it("idle() resolves once everything queued so far has settled", async () => {
    const lock = createSessionLock();
    const log: string[] = [];
    void lock.run("a", async () => {
      await tick();
      log.push("a");
    });
    void lock.run("b", async () => {
      log.push("b");
    });
    await lock.idle();
    expect(log).toEqual(["a", "b"]);
  });
});
