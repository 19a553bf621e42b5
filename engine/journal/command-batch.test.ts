import { describe, expect, it } from "vitest";
import { CANDLE_ROWS } from "../market/candle-rows";
import { SPOT_ROWS } from "../spot/spot-rows";
import { CommandBatch } from "./command-batch";

const scales = { priceScale: 2, amountScale: 4, quoteScale: 6 };

describe("merging batches for one projection write (decision 017, step 18)", () => {
  it("writes both into a new batch, one statement per table, and leaves the batches as they were", () => {
    const [first, second] = [new CommandBatch(), new CommandBatch()];
    first.noteSeq(1);
    first.rows(SPOT_ROWS).addFill("o1", 5n, 2, "2026-11-28T00:00:01Z");
    first.rows(CANDLE_ROWS).addTrade("BTC/USDT", { time: 60_000, price: 1_000n, quantity: 1n, value: 10n }, scales);
    second.noteSeq(2);
    second.rows(SPOT_ROWS).addFill("o1", 7n, 2, "2026-11-28T00:00:02Z");
    second.rows(SPOT_ROWS).setStatus("o1", "filled", null, 2, "2026-11-28T00:00:02Z");
    second.rows(CANDLE_ROWS).addTrade("BTC/USDT", { time: 61_000, price: 1_200n, quantity: 2n, value: 24n }, scales);
    const before = [first.projectionStatements(), second.projectionStatements()];

    const merged = first.emptyCopy();
    expect(merged.absorb(first)).toBe(true);
    expect(merged.absorb(second)).toBe(true);
    expect(merged.lastSeq).toBe(2);
    expect(merged.size).toBe(2);
    const script = merged.projectionStatements();
    // One candle row (the same minute: high 12.00, close 12.00, volume 0.0003), one update of the order (0.12 filled, filled).
    expect(script).toHaveLength(2);
    expect(script.join("\n")).toContain('"open_time":"60000","open":"10","high":"12","low":"10","close":"12","volume":"0.0003","turnover":"0.000034"');
    expect(script.join("\n")).toContain('"order_id":"o1","filled":"0.12","status":"filled"');
    // The batches merged are unchanged: a write that fails leaves them to be written again as they were.
    expect([first.projectionStatements(), second.projectionStatements()]).toEqual(before);
    const again = first.emptyCopy();
    again.absorb(first);
    again.absorb(second);
    expect(again.projectionStatements()).toEqual(script);
  });
});
