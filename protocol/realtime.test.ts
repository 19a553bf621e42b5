import { describe, expect, it } from "vitest";
import { topicAccess, topics, TOPICS } from "./realtime";

describe("the topic registry", () => {
  it("accepts every name its builders make, with the kind and access of its entry", () => {
    const built = [
      [topics.index, "index"],
      [topics.allSymbolDetail, "all_symbol_detail"],
      [topics.kline("BTC/USDT", "1M"), "kline"],
      [topics.kline("ETH/BTC", "15m"), "kline"],
      [topics.depth("BTC/USDT"), "depth"],
      [topics.trade("DOGE/USDT"), "trade"],
      [topics.contractDepth("BTC/USDT"), "contract_depth"],
      [topics.contractTrade("BTC/USD"), "contract_trade"],
      [topics.contractState("ETH/USDT"), "contract_state"],
      [topics.contractKline("BTC/USDT", "mark", "1h"), "contract_kline"],
      [topics.contractKline("ETH/USD", "last", "1M"), "contract_kline"],
    ] as const;
    for (const [name, kind] of built) expect(topicAccess(name), name).toEqual({ kind, access: "public" });
    expect(topicAccess(topics.refresh("42"))).toEqual({ kind: "refresh", access: "member", memberId: "42" });
    expect(Object.keys(TOPICS).sort()).toEqual([
      "all_symbol_detail",
      "contract_depth",
      "contract_kline",
      "contract_state",
      "contract_trade",
      "depth",
      "index",
      "kline",
      "refresh",
      "trade",
    ]);
  });

  it("knows no other topic", () => {
    for (const name of [
      "",
      "indexx",
      "kline_BTC_USDT_2m",
      "kline_BTC_USDT",
      "depth_btc_usdt",
      "depth_BTC",
      "trade_BTC_USDT_1m",
      "refresh_",
      "refresh_abc",
      "refresh_1_2",
      `depth_${"A".repeat(21)}_USDT`,
      42,
      null,
      { topic: "index" },
    ]) {
      expect(topicAccess(name), String(name)).toBeNull();
    }
  });

  it("checks each topic's payload with its schema", () => {
    expect(TOPICS.refresh.payload.safeParse({ symbols: ["BTC/USDT"], orders: true, balances: false }).success).toBe(true);
    expect(TOPICS.depth.payload.safeParse({ symbol: "BTC/USDT", seq: 1, bids: [["1", "2"]], asks: [] }).success).toBe(true);
    expect(TOPICS.depth.payload.safeParse({ symbol: "BTC/USDT", seq: 1, bids: [[1, 2]], asks: [] }).success).toBe(false);
  });
});
