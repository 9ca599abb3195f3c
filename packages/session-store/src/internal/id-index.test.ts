import { describe, expect, it } from "vitest";
import { IdIndex } from "./id-index";

describe("IdIndex", () => {
  it("maps hex and other ids to indices, later entries winning, through growth", () => {
    const ids: string[] = [];
    const index = new IdIndex((at) => ids[at]);
    const add = (id: string) => {
      ids.push(id);
      index.set(id, ids.length - 1);
    };
    for (let n = 0; n < 5000; n++) add(n.toString(16).padStart(8, "0"));
    add("not-hex-id");
    add("x");
    add("00000010");
    expect(index.size).toBe(5002);
    expect(index.get("00000000")).toBe(0);
    expect(index.get("00001387")).toBe(4999);
    expect(index.get("00000010")).toBe(5002);
    expect(index.get("not-hex-id")).toBe(5000);
    expect(index.has("x")).toBe(true);
    expect(index.get("0000138g")).toBeUndefined();
    expect(index.has("missing1")).toBe(false);
  });
});
