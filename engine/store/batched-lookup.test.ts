import { describe, expect, it } from "vitest";
import { BatchedLookup } from "./batched-lookup";

describe("batched lookup", () => {
  it("answers the look-ups of one event-loop turn with one query of their distinct keys", async () => {
    const queries: string[][] = [];
    const lookup = new BatchedLookup<number>(async (keys) => {
      queries.push(keys);
      return new Map(keys.filter((k) => k !== "missing").map((k) => [k, k.length]));
    });
    const answers = await Promise.all([lookup.get("a"), lookup.get("bb"), lookup.get("a"), lookup.get("missing")]);
    expect(answers).toEqual([1, 2, 1, undefined]);
    expect(queries).toEqual([["a", "bb", "missing"]]);
    // A later turn asks again: nothing is cached.
    expect(await lookup.get("a")).toBe(1);
    expect(queries).toHaveLength(2);
  });

  it("splits large batches and fails every look-up of a failed query", async () => {
    const sizes: number[] = [];
    const lookup = new BatchedLookup<string>(async (keys) => {
      sizes.push(keys.length);
      if (keys.includes("boom")) throw new Error("database down");
      return new Map(keys.map((k) => [k, k]));
    }, 2);
    const results = await Promise.allSettled(["a", "b", "c", "boom"].map((k) => lookup.get(k)));
    expect(sizes).toEqual([2, 2]);
    expect(results.map((r) => r.status)).toEqual(["fulfilled", "fulfilled", "rejected", "rejected"]);
  });
});
