import { describe, expect, it } from "vitest";
import { coreNotices, NOTICE_COMMANDS } from "./core-notices";
import { noticeText } from "./notice-texts";

const scales = { asset: () => 8, price: () => 2, contractPrice: () => 1 };

/** Margin's notifications (issue 31): a level below the warning line, once per fall; a liquidation; each linked to its account. */
describe("margin notifications", () => {
  it("tells a member of a warning and of a liquidation, in their language, linked to the account", () => {
    expect(NOTICE_COMMANDS).toContain("margin.tick");
    const notices = coreNotices(
      { type: "margin.tick", at: 0 },
      [
        { type: "margin.level", memberId: "7", scope: "BTC/USDT", warned: true, level: 127n },
        // A recovery tells nothing.
        { type: "margin.level", memberId: "8", scope: "all", warned: false, level: 150n },
        { type: "margin.liquidated", memberId: "9", scope: "all", closed: true },
      ],
      scales,
    );
    expect(notices).toEqual([
      { memberId: "7", type: "margin_warning", params: { account: "BTC/USDT", level: "1.27" }, orderCode: "BTC_USDT", key: null },
      { memberId: "9", type: "margin_liquidated", params: { account: "all" }, orderCode: "all", key: null },
    ]);
    expect(noticeText("en", "margin_warning", notices[0]!.params)).toBe(
      "The margin level of your BTC/USDT isolated account fell to 1.27: at 1.10 it is liquidated. Add funds or repay.",
    );
    expect(noticeText("de", "margin_liquidated", notices[1]!.params)).toBe(
      "Dein Cross-Margin-Konto hat die Liquidationslinie erreicht: seine Coins wurden verkauft, um die Schulden zu tilgen.",
    );
  });
});

/** Crypto loans' notifications (decision 051): the margin call, once per rise to it; a liquidation that closed the loan; each linked to the loan. */
describe("loan notifications", () => {
  it("tells a member of a margin call and of a liquidation, in their language, linked to the loan", () => {
    expect(NOTICE_COMMANDS).toContain("pledge.tick");
    const notices = coreNotices(
      { type: "pledge.tick", at: 0 },
      [
        { type: "pledge.ltv", loanId: "Ls1-1", memberId: "7", warned: true, ltv: 8123n },
        // Falling back under the line tells nothing; nor does a liquidation that could not sell yet.
        { type: "pledge.ltv", loanId: "Ls1-2", memberId: "8", warned: false, ltv: 7000n },
        { type: "pledge.liquidated", loanId: "Ls1-3", memberId: "9", productId: "USDT-BTC-0", repaid: 0n, writtenOff: 0n, closed: false },
        { type: "pledge.liquidated", loanId: "Ls1-4", memberId: "9", productId: "USDT-BTC-0", repaid: 5n, writtenOff: 0n, closed: true },
      ],
      scales,
    );
    expect(notices).toEqual([
      { memberId: "7", type: "loan_margin_call", params: { loan: "Ls1-1", ltv: "81.23" }, orderCode: "Ls1-1", key: null },
      { memberId: "9", type: "loan_liquidated", params: { loan: "Ls1-4" }, orderCode: "Ls1-4", key: null },
    ]);
    expect(noticeText("en", "loan_margin_call", notices[0]!.params)).toBe(
      "Your loan Ls1-1 reached 81.23 % LTV, its margin call: add collateral or repay before its collateral is sold.",
    );
  });
});

/** Subscriptions' notifications (decision 053): each settlement as it came out, and a return application paid; linked to the records of the project's type. */
describe("subscription notifications", () => {
  it("tells a member how their subscription was allotted and when their return is paid", () => {
    expect(NOTICE_COMMANDS).toEqual(expect.arrayContaining(["subscription.tick", "subscription.return_pay"]));
    const settled = (subscriptionId: string, status: "won" | "already_returned" | "allotted", refund: bigint) => ({
      type: "subscription.settled" as const,
      subscriptionId,
      memberId: "7",
      projectId: "TOP5-R1",
      projectType: 2 as const,
      asset: "TOP5",
      quoteAsset: "USDT",
      status,
      wonQuantity: 2_50000000n,
      wonAmount: 25_00000000n,
      refund,
    });
    const notices = coreNotices(
      { type: "subscription.tick", at: 0 },
      [settled("U1", "won", 0n), settled("U2", "already_returned", 7_50000000n), settled("U3", "allotted", 7_50000000n)],
      scales,
    );
    expect(notices.map((n) => [n.type, n.orderCode, n.key])).toEqual([
      ["subscription_won", "2_TOP5-R1", "subscription:U1"],
      ["subscription_returned", "2_TOP5-R1", "subscription:U2"],
      ["subscription_return_waiting", "2_TOP5-R1", "subscription:U3"],
    ]);
    expect(noticeText("en", "subscription_returned", notices[1]!.params)).toBe(
      "Your subscription to TOP5-R1 is allotted: 2.5 TOP5 for 25 USDT; the 7.5 USDT not allotted is back in your funding account.",
    );
    const paid = coreNotices(
      { type: "subscription.return_pay", applicationId: "R1" },
      [{ type: "subscription.returned", applicationId: "R1", memberId: "7", subscriptionIds: ["U3"], amounts: [{ asset: "USDT", amount: 7_50000000n }] }],
      scales,
    );
    expect(paid).toEqual([{ memberId: "7", type: "subscription_return_paid", params: { amounts: "7.5 USDT" }, orderCode: null, key: "return-application:R1" }]);
    expect(noticeText("en", "subscription_return_paid", paid[0]!.params)).toBe("Your return application is paid: 7.5 USDT back in your funding account.");
  });
});
