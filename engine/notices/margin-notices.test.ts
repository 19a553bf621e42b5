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
