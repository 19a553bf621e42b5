import { describe, expect, it } from "vitest";
import { IdIndex, hashOf } from "./id-index";

interface Rec {
  id: string;
  n: number;
}

/** A small deterministic generator (the same sequence every run). */
function random(seed: number): () => number {
  let s = seed >>> 0;
  return () => {
    s = (Math.imul(s, 1664525) + 1013904223) >>> 0;
    return s / 2 ** 32;
  };
}

describe("IdIndex", () => {
  it("answers as a Map would through inserts, replacements and deletes, growing as it fills", () => {
    const index = new IdIndex<Rec>();
    const map = new Map<string, Rec>();
    const next = random(7);
    // Few distinct ids for many operations: long probe runs, deletes inside them, wrap-around.
    const ids = Array.from({ length: 3_000 }, (_, i) => (i % 3 === 0 ? `m${i.toString(36)}` : `${(1_700_000_000_000 + i * 7).toString(36)}${i}`));
    for (let op = 0; op < 60_000; op++) {
      const id = ids[Math.floor(next() * ids.length)]!;
      const roll = next();
      if (roll < 0.5) {
        const rec = { id, n: op };
        index.set(rec);
        map.set(id, rec);
      } else if (roll < 0.85) {
        expect(index.delete(id)).toBe(map.delete(id));
      } else {
        expect(index.get(id)).toBe(map.get(id));
        expect(index.has(id)).toBe(map.has(id));
      }
      expect(index.size).toBe(map.size);
    }
    for (const id of ids) expect(index.get(id)).toBe(map.get(id));
    for (const id of ids) index.delete(id);
    expect(index.size).toBe(0);
    for (const id of ids) expect(index.has(id)).toBe(false);
  });

  it("finds records whose hashes share a home slot, and keeps them found after a delete before them", () => {
    // Ids that land on the same slot of a 16-slot table: each probe run is one long collision chain.
    const same = Array.from({ length: 2_000 }, (_, i) => `x${i}`)
      .filter((id) => (hashOf(id) & 15) === (hashOf("x0") & 15))
      .slice(0, 6);
    expect(same.length).toBe(6);
    const index = new IdIndex<Rec>(8);
    same.forEach((id, n) => index.set({ id, n }));
    index.delete(same[0]!);
    index.delete(same[3]!);
    expect(same.map((id) => index.get(id)?.n)).toEqual([undefined, 1, 2, undefined, 4, 5]);
    expect(index.get("never")).toBeUndefined();
  });

  it("never hashes to 0 (an empty slot) and tells ids that differ in one character apart", () => {
    expect(hashOf("")).not.toBe(0);
    expect(hashOf("mwzo92xl0002")).not.toBe(hashOf("mwzo92xl0003"));
  });
});
