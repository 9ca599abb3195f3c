import { describe, expect, it } from "vitest";
import { pickActionForKey } from "./pick-action-for-key";

describe("pickActionForKey", () => {
  it("maps navigation, selection and cancel keys", () => {
    expect(pickActionForKey(undefined, { name: "up" })).toEqual({ type: "up" });
    expect(pickActionForKey(undefined, { name: "down" })).toEqual({ type: "down" });
    expect(pickActionForKey("\u0010", { name: "p", ctrl: true })).toEqual({ type: "up" });
    expect(pickActionForKey("\u000e", { name: "n", ctrl: true })).toEqual({ type: "down" });
    expect(pickActionForKey(undefined, { name: "pageup" })).toEqual({ type: "page-up" });
    expect(pickActionForKey(undefined, { name: "pagedown" })).toEqual({ type: "page-down" });
    expect(pickActionForKey(undefined, { name: "home" })).toEqual({ type: "home" });
    expect(pickActionForKey(undefined, { name: "end" })).toEqual({ type: "end" });
    expect(pickActionForKey("\r", { name: "return" })).toEqual({ type: "select" });
    expect(pickActionForKey("\u001b", { name: "escape" })).toEqual({ type: "cancel" });
    expect(pickActionForKey(undefined, { name: "escape", meta: true, sequence: "\u001b" })).toEqual({
      type: "cancel",
    });
    expect(pickActionForKey("\u0003", { name: "c", ctrl: true })).toEqual({ type: "cancel" });
    expect(pickActionForKey("\u0004", { name: "d", ctrl: true })).toEqual({ type: "cancel" });
    expect(pickActionForKey("\u007f", { name: "backspace" })).toEqual({ type: "backspace" });
  });

  it("types printable characters into the filter and ignores other keys", () => {
    expect(pickActionForKey("a", { name: "a" })).toEqual({ type: "type", text: "a" });
    expect(pickActionForKey("K", { name: "k", sequence: "K" })).toEqual({ type: "type", text: "K" });
    expect(pickActionForKey("é", undefined)).toEqual({ type: "type", text: "é" });
    expect(pickActionForKey(" ", { name: "space" })).toEqual({ type: "type", text: " " });
    expect(pickActionForKey("\t", { name: "tab" })).toBeUndefined();
    expect(pickActionForKey("\u0001", { name: "a", ctrl: true })).toBeUndefined();
    expect(pickActionForKey("\u001bx", { name: "x", meta: true })).toBeUndefined();
    expect(pickActionForKey(undefined, { name: "left" })).toBeUndefined();
  });
});
