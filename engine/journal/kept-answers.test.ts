import { describe, expect, it } from "vitest";
import { KeptAnswers, type KeptAnswer } from "./kept-answers";

const answer = (at: number, seq = 0, response = `"${at}"`): KeptAnswer => ({ fingerprint: "f", response, at, seq });
/** Memory after a start whose load found no keys in the table. */
const loadedEmpty = (windowMs: number, cap: number) => {
  const kept = new KeptAnswers({ windowMs, cap });
  kept.loaded([], true, 0, 0);
  return kept;
};

describe("KeptAnswers", () => {
  it("asks the table for every miss until the start has loaded the recent keys, then for none", () => {
    const kept = new KeptAnswers({ windowMs: 1_000, cap: 10 });
    expect(kept.mayHaveLetGo(0)).toBe(true);
    kept.keep("1:a", answer(5, 1), 5, 1);
    expect(kept.get("1:a", 6)?.response).toBe('"5"');
    kept.loaded([], true, 10, 0);
    expect(kept.mayHaveLetGo(10)).toBe(false);
    expect(kept.get("1:a", 10)?.response).toBe('"5"');
  });

  it("answers a key only within its window, and lets it go after", () => {
    const kept = loadedEmpty(1_000, 10);
    kept.keep("1:a", answer(100), 100, 0);
    expect(kept.get("1:a", 1_099)).toBeDefined();
    expect(kept.get("1:a", 1_100)).toBeUndefined();
    // Past its window it was not let go early: the table need not be asked.
    kept.keep("1:b", answer(1_200), 1_200, 0);
    expect(kept.size).toBe(1);
    expect(kept.mayHaveLetGo(1_200)).toBe(false);
  });

  it("keeps the first answer of a key", () => {
    const kept = loadedEmpty(1_000, 10);
    kept.keep("1:a", answer(1, 0, '"first"'), 1, 0);
    kept.keep("1:a", answer(2, 0, '"second"'), 2, 0);
    expect(kept.get("1:a", 3)?.response).toBe('"first"');
  });

  it("beyond its cap lets the oldest go once their rows are written, and then says misses must be asked", () => {
    const kept = loadedEmpty(10_000, 2);
    kept.keep("1:a", answer(1, 1), 1, 0);
    kept.keep("1:b", answer(2, 2), 2, 0);
    // Nothing is written yet (cursor 0): nothing is let go, whatever the cap.
    kept.keep("1:c", answer(3, 3), 3, 0);
    expect(kept.size).toBe(3);
    expect(kept.mayHaveLetGo(3)).toBe(false);
    // Rows written up to 3: the oldest goes, and a miss younger than it may be in the table.
    kept.keep("1:d", answer(4, 4), 4, 3);
    expect(kept.size).toBe(2);
    expect(kept.get("1:a", 5)).toBeUndefined();
    expect(kept.get("1:c", 5)).toBeDefined();
    expect(kept.mayHaveLetGo(5)).toBe(true);
    // Once what was let go has left the window, a miss is new again.
    expect(kept.mayHaveLetGo(2 + 10_000)).toBe(false);
  });

  it("a start's load holds the table's keys before what memory held meanwhile, which wins; an incomplete load asks for older misses", () => {
    const kept = new KeptAnswers({ windowMs: 10_000, cap: 10 });
    kept.keep("1:new", answer(50, 9, '"memory"'), 50, 0);
    kept.loaded(
      [
        ["1:old", answer(20)],
        ["1:new", answer(45, 0, '"table"')],
      ],
      false,
      60,
      0,
    );
    expect(kept.get("1:old", 60)).toBeDefined();
    expect(kept.get("1:new", 60)?.response).toBe('"memory"');
    // Keys older than the oldest read may be in the table: asked while they are in the window.
    expect(kept.mayHaveLetGo(60)).toBe(true);
    expect(kept.mayHaveLetGo(20 + 10_000)).toBe(false);
  });

  it("a key used again after its window holds its new answer, so the new request's retry is answered", () => {
    const kept = loadedEmpty(1_000, 10);
    kept.keep("1:a", answer(0, 1, '"old"'), 0, 1);
    // Nothing else is kept before the reuse: the expired entry is still in the map.
    kept.keep("1:a", answer(5_000, 2, '"new"'), 5_000, 1);
    expect(kept.get("1:a", 5_001)?.response).toBe('"new"');
    expect(kept.mayHaveLetGo(5_001)).toBe(false);
  });

  it("a load drops rows that left the window while it ran, and keeps what was let go meanwhile", () => {
    const kept = new KeptAnswers({ windowMs: 1_000, cap: 1 });
    // Before the load every miss is asked; meanwhile the cap lets "1:a" go (its row is written).
    kept.keep("1:a", answer(100, 1), 100, 1);
    kept.keep("1:b", answer(200, 2), 200, 2);
    expect(kept.get("1:a", 300)).toBeUndefined();
    // The load read neither (its query began before their rows) and an expired row of "1:c".
    kept.loaded([["1:c", answer(50)]], true, 1_100, 2);
    expect(kept.get("1:c", 1_100)).toBeUndefined();
    // "1:a" left memory younger than the window: its miss is still asked of the table.
    expect(kept.mayHaveLetGo(1_099)).toBe(true);
  });

  it("a load never lets go a key whose table row is not written yet", () => {
    const kept = new KeptAnswers({ windowMs: 10_000, cap: 1 });
    kept.keep("1:live", answer(100, 7), 100, 0);
    kept.loaded([["1:row", answer(50)]], true, 120, 0);
    // Over the cap, the table's own row may go; the live one (command 7, not projected) stays.
    expect(kept.get("1:live", 130)).toBeDefined();
    expect(kept.get("1:row", 130)).toBeUndefined();
    expect(kept.mayHaveLetGo(130)).toBe(true);
  });
});
