import { describe, expect, it } from "vitest";
import { LANGUAGE_CODES } from "../../protocol/languages";
import type { WalletNotice } from "../../protocol/realtime";
import { ANTI_CODE_SLOT, walletMailText, walletMailTexts } from "./wallet-mail-texts";

const NOTICES: WalletNotice[] = [
  { kind: "deposit", id: "chain:tron:aa:0", coin: "USDT", amount: "0.00000001", network: "TRC20", txid: "aa" },
  ...(["review", "approved", "broadcast", "completed", "rejected", "cancelled"] as const).map((state): WalletNotice => ({
    kind: "withdrawal",
    id: "W1",
    coin: "BTC",
    amount: "0.1",
    fee: "0.0005",
    state,
    ...(state === "review" ? { network: "BTC", address: "bc1q…", memo: "42" } : {}),
    ...(state === "rejected" ? { reason: "KYC first" } : {}),
    ...(state === "broadcast" ? { txid: "ff" } : {}),
  })),
];

describe("what the wallet's mails say", () => {
  it("has every mail in all nine languages, translated, with every value filled in", () => {
    for (const notice of NOTICES) {
      const texts = walletMailTexts(notice);
      expect(Object.keys(texts).sort()).toEqual([...LANGUAGE_CODES].sort());
      for (const lang of LANGUAGE_CODES) {
        const { subject, body, antiLine } = texts[lang];
        const where = `${lang} ${notice.kind} ${"state" in notice ? notice.state : ""}`;
        expect(`${subject}\n${body}`, where).not.toMatch(/\{\{|mail\./);
        expect(antiLine.split(ANTI_CODE_SLOT), where).toHaveLength(2);
        expect(subject, where).toContain(notice.amount);
        if (lang !== "en") {
          expect(subject, where).not.toBe(texts.en.subject);
          expect(body.split("\n")[0], where).not.toBe(texts.en.body.split("\n")[0]);
        }
      }
    }
  });

  it("tells the exact amounts, what a refused withdrawal gives back, and the facts a member checks", () => {
    const rejected = walletMailText(
      NOTICES.find((n) => "state" in n && n.state === "rejected")!,
      "en",
    );
    expect(rejected.body.split("\n")).toEqual([
      "Your withdrawal of 0.1 BTC was rejected. The 0.1005 BTC held for it (amount and fee) is available in your funding account again.",
      "Reason: KYC first",
      "Withdrawal ID: W1",
      "Fee: 0.0005 BTC",
    ]);
    const requested = walletMailText(
      NOTICES.find((n) => "state" in n && n.state === "review")!,
      "zh_cn",
    );
    expect(requested.subject).toBe("已收到提币申请：0.1 BTC");
    expect(requested.body).toContain("地址：bc1q…\n标签 / 备注：42");
    expect(walletMailText(NOTICES[0]!, "jp").subject).toBe("入金が反映されました：0.00000001 USDT");
  });
});
