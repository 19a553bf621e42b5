import { describe, expect, it } from "vitest";
import { namedRouteTarget, noticeHref, NOTICES_PATH } from "./notice-links";

/** Where a notification leads (decision 031): the page of what it tells of. */
describe("notification links", () => {
  it("lead a margin notice to its account's page, cross or isolated", () => {
    expect(noticeHref({ serviceType: "margin", orderCode: "BTC_USDT" })).toBe("/order?serviceType=margin&orderCode=BTC_USDT");
    expect(namedRouteTarget("margin", "BTC_USDT")).toBe("/account/wallet/margin?account=BTC_USDT");
    expect(namedRouteTarget("margin", "all")).toBe("/account/wallet/margin");
    expect(namedRouteTarget("margin", "../x")).toBe("/account/wallet/margin");
  });

  it("lead a loan notice to the member's loans page at that loan", () => {
    expect(namedRouteTarget("loan", "Ls1x-1")).toBe("/my-loan?loan=Ls1x-1");
    expect(namedRouteTarget("loan", null)).toBe("/my-loan");
  });

  it("lead a subscription notice to the records of its project's type", () => {
    expect(namedRouteTarget("subscription", "2_TOP5-R1")).toBe("/etf/list");
    expect(namedRouteTarget("subscription", "1_NXA-R1")).toBe("/newCurrency/list");
    expect(namedRouteTarget("subscription", null)).toBe("/newCurrency/list");
  });

  it("lead the other kinds to their pages, and anything else to the notifications", () => {
    expect(namedRouteTarget("contract", "BTC_USDT")).toBe("/exchange/full-contract/BTC_USDT");
    expect(namedRouteTarget("spot", "abc123")).toBe("/account/entrust/spot/abc123");
    expect(namedRouteTarget("nonsense", null)).toBe(NOTICES_PATH);
  });
});
