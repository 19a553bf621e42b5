import { describe, expect, it } from "vitest";
import { engineFilter, entrustSearch, isFiltered, MARGIN_ENTRUST_TABS, parseEntrustQuery } from "./entrust";

const parse = (query: string) => parseEntrustQuery(new URLSearchParams(query));

describe("the spot orders page address", () => {
  it("reads tab, page and filter; blank fields mean no filter", () => {
    expect(parse("")).toEqual({ filter: { tab: "open", page: 1 }, errors: null, values: {} });
    const { filter, errors } = parse("tab=history&page=3&symbol=BTC/USDT&side=sell&from=2026-01-01&to=2026-01-31");
    expect(errors).toBeNull();
    expect(filter).toEqual({ tab: "history", page: 3, symbol: "BTC_USDT", side: "sell", from: "2026-01-01", to: "2026-01-31" });
    expect(engineFilter(filter)).toEqual({ symbol: "BTC_USDT", side: "sell", from: "2026-01-01", to: "2026-01-31", account: "spot" });
    expect(engineFilter(filter, "fixed").account).toBe("fixed");
    expect(parse("tab=trades&symbol=&side=&from=&to=").filter).toEqual({ tab: "trades", page: 1 });
  });

  it("falls back to the first tab and page for stale links", () => {
    expect(parse("tab=nope&page=-4").filter).toEqual({ tab: "open", page: 1 });
    expect(parse("page=abc").filter.page).toBe(1);
    // The records tab is a margin page's only.
    expect(parse("tab=records").filter.tab).toBe("open");
    expect(parseEntrustQuery(new URLSearchParams("tab=records"), MARGIN_ENTRUST_TABS).filter.tab).toBe("records");
  });

  it("names what is wrong with a filter, keeps what was sent, and keeps the tab", () => {
    const { filter, errors, values } = parse("tab=history&symbol=btc&from=2026-02-30&to=2026-01-01&side=long");
    expect(filter).toEqual({ tab: "history", page: 1 });
    expect(errors).toEqual({ symbol: ["validation.symbol"], from: ["validation.date"], side: ["validation.entrust_side"] });
    expect(values).toEqual({ symbol: "btc", side: "long", from: "2026-02-30", to: "2026-01-01" });
    expect(parse("from=2026-02-02&to=2026-02-01").errors).toEqual({ to: ["validation.date_range"] });
    expect(parse("from=0000-01-01&to=9999-12-31").errors).toEqual({ from: ["validation.date_years"], to: ["validation.date_years"] });
  });

  it("writes links with only what is set", () => {
    const { filter } = parse("tab=history&symbol=ETH_USDT&page=2");
    expect(entrustSearch(filter)).toBe("?tab=history&symbol=ETH_USDT&page=2");
    expect(entrustSearch(filter, { tab: "trades", page: 1 })).toBe("?tab=trades&symbol=ETH_USDT");
    expect(entrustSearch({ tab: "open" })).toBe("?tab=open");
    expect(entrustSearch({})).toBe("");
    expect(isFiltered(filter)).toBe(true);
    expect(isFiltered({ tab: "open", page: 1 })).toBe(false);
  });
});
