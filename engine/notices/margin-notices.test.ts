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
