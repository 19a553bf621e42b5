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

  it("holds look-ups asked for while a query runs and sends them together when it returns", async () => {
    const queries: string[][] = [];
    const releases: Array<() => void> = [];
    const lookup = new BatchedLookup<string>(async (keys) => {
      queries.push(keys);
      await new Promise<void>((resolve) => releases.push(resolve));
      return new Map(keys.map((k) => [k, k.toUpperCase()]));
    });
    const first = lookup.get("a");
    await new Promise((resolve) => setImmediate(resolve));
    expect(queries).toEqual([["a"]]);
    // Three turns of the event loop while "a" is in flight: no query of their own.
    const later: Array<Promise<string | undefined>> = [];
    for (const key of ["b", "c", "a"]) {
      later.push(lookup.get(key));
      await new Promise((resolve) => setImmediate(resolve));
    }
    expect(queries).toHaveLength(1);
    releases.shift()!();
    expect(await first).toBe("A");
    for (let turn = 0; turn < 2; turn++) await new Promise((resolve) => setImmediate(resolve));
    expect(queries).toEqual([["a"], ["b", "c", "a"]]);
    releases.shift()!();
    expect(await Promise.all(later)).toEqual(["B", "C", "A"]);
  });
});
