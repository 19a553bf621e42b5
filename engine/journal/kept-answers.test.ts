import { describe, expect, it } from "vitest";
import { KeptAnswers, type KeptAnswer } from "./kept-answers";

const answer = (at: number, seq = 0, response = `"${at}"`): KeptAnswer => ({ fingerprint: "f", response, at, seq });

describe("KeptAnswers", () => {
  it("asks the table for every miss until the start has loaded the recent keys, then for none", () => {
    const kept = new KeptAnswers({ windowMs: 1_000, cap: 10 });
    expect(kept.mayHaveLetGo(0)).toBe(true);
    kept.keep("1:a", answer(5, 1), 5, 1);
    expect(kept.get("1:a", 6)?.response).toBe('"5"');
    kept.loaded([], true, 10);
    expect(kept.mayHaveLetGo(10)).toBe(false);
    expect(kept.get("1:a", 10)?.response).toBe('"5"');
  });

  it("answers a key only within its window, and lets it go after", () => {
    const kept = new KeptAnswers({ windowMs: 1_000, cap: 10 });
    kept.loaded([], true, 0);
    kept.keep("1:a", answer(100), 100, 0);
    expect(kept.get("1:a", 1_099)).toBeDefined();
    expect(kept.get("1:a", 1_100)).toBeUndefined();
    // Past its window it was not let go early: the table need not be asked.
    kept.keep("1:b", answer(1_200), 1_200, 0);
    expect(kept.size).toBe(1);
    expect(kept.mayHaveLetGo(1_200)).toBe(false);
  });

  it("keeps the first answer of a key", () => {
    const kept = new KeptAnswers({ windowMs: 1_000, cap: 10 });
    kept.loaded([], true, 0);
    kept.keep("1:a", answer(1, 0, '"first"'), 1, 0);
    kept.keep("1:a", answer(2, 0, '"second"'), 2, 0);
    expect(kept.get("1:a", 3)?.response).toBe('"first"');
  });

  it("beyond its cap lets the oldest go once their rows are written, and then says misses must be asked", () => {
    const kept = new KeptAnswers({ windowMs: 10_000, cap: 2 });
    kept.loaded([], true, 0);
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

  it("a start's load holds the table's keys before the replayed ones, and an incomplete load asks for older misses", () => {
    const kept = new KeptAnswers({ windowMs: 10_000, cap: 10 });
    kept.keep("1:new", answer(50, 9), 50, 0);
    kept.loaded(
      [
        ["1:old", answer(20)],
        ["1:new", answer(50, 0, '"table"')],
      ],
      false,
      60,
    );
    expect(kept.get("1:old", 60)).toBeDefined();
    expect(kept.get("1:new", 60)?.response).toBe('"table"');
    // Keys older than the oldest read may be in the table: asked while they are in the window.
    expect(kept.mayHaveLetGo(60)).toBe(true);
    expect(kept.mayHaveLetGo(20 + 10_000)).toBe(false);
  });
});
