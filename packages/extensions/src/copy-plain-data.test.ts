import { describe, expect, it } from "vitest";
import { copyPlainData } from "./copy-plain-data";

describe("copyPlainData", () => {
  it("copies plain objects and arrays deeply, sharing strings", () => {
    const original = { a: [{ b: "text" }, 1, null], c: { d: true } };
    const copy = copyPlainData(original);
    expect(copy).toEqual(original);
    expect(copy).not.toBe(original);
    expect(copy.a).not.toBe(original.a);
    expect(copy.a[0]).not.toBe(original.a[0]);
    expect(copy.c).not.toBe(original.c);
  });

  it("shares class instances, errors, signals and functions as they are", () => {
    const error = new Error("e");
    const signal = new AbortController().signal;
    const date = new Date(0);
    const fn = () => 1;
    const copy = copyPlainData({ error, signal, date, fn });
    expect(copy.error).toBe(error);
    expect(copy.signal).toBe(signal);
    expect(copy.date).toBe(date);
    expect(copy.fn).toBe(fn);
  });

  it("keeps cycles and shared references as they were, and null-prototype objects", () => {
    const shared = { x: 1 };
    const node: Record<string, unknown> = { shared, again: shared };
    node.self = node;
    const bare = Object.assign(Object.create(null) as Record<string, unknown>, { k: "v" });
    const copy = copyPlainData({ node, bare });
    expect(copy.node.self).toBe(copy.node);
    expect(copy.node.shared).toBe(copy.node.again);
    expect(copy.node.shared).not.toBe(shared);
    expect(Object.getPrototypeOf(copy.bare)).toBeNull();
    expect(copy.bare.k).toBe("v");
  });
});
