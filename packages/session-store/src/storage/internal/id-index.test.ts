import { describe, expect, it } from "vitest";
import { IdIndex } from "./id-index";
import { PackedIds } from "./packed-ids";

describe("IdIndex (storage)", () => {
  it("grows its hash column geometrically when appends reserve one id at a time", () => {
    const ids = new PackedIds(20_000);
    const index = new IdIndex(ids, 16);
    const buffers = new Set<ArrayBufferLike>();
    for (let i = 0; i < 20_000; i++) {
      const id = `e${i}`;
      ids.set(i, id);
      ids.size = i + 1;
      const hashes = new Uint32Array(ids.size);
      hashes[i] = IdIndex.hash(id);
      // What an append does: one more record, indexed in a batch of one.
      index.insertMany(i, i + 1, hashes, []);
      buffers.add(index.state().hashes.buffer);
    }
    // An exact-fit reserve copied the whole column on every append (a new buffer each time).
    expect(buffers.size).toBeLessThan(20);
    expect(index.find("e0")).toBe(0);
    expect(index.find("e19999")).toBe(19_999);
  });

  it("hashes every id as FNV-1a over its UTF-16 code units, 8-character ids included", () => {
    const reference = (id: string) => {
      let h = 0x811c9dc5;
      for (let i = 0; i < id.length; i++) h = Math.imul(h ^ id.charCodeAt(i), 0x01000193);
      return h >>> 0;
    };
    const ids = [
      "",
      "a",
      "0197abcd",
      "fb2627fc",
      "ffffffff",
      "日本語のテキスト",
      "é\u0000\uffff\ud800xyz",
      "e1234567",
    ];
    for (let length = 0; length <= 20; length++) ids.push("z9\u00e9\u2713".repeat(6).slice(0, length));
    for (const id of ids) expect(IdIndex.hash(id), JSON.stringify(id)).toBe(reference(id));
    expect(ids.filter((id) => id.length === 8).length).toBeGreaterThan(4);
  });
});
