import { getZodConstraint } from "@conform-to/zod/v4";
import { describe, expect, it } from "vitest";
import type { FormCheck } from "../form-check";
import type { WithdrawalRules } from "../withdrawal";
import * as account from "./account";
import * as addressBook from "./address-book";
import * as auth from "./auth";
import * as bind from "./bind";
import * as contract from "./contract";
import * as margin from "./margin";
import * as ops from "./ops";
import * as pledge from "./pledge";
import * as stake from "./stake";
import * as subscribe from "./subscribe";
import * as order from "./order";
import * as transfer from "./transfer";
import * as withdrawal from "./withdrawal";

const checks = {
  ...account,
  ...addressBook,
  ...auth,
  ...bind,
  ...contract,
  ...margin,
  ...ops,
  ...pledge,
  ...stake,
  ...subscribe,
  ...order,
  ...transfer,
  ...withdrawal,
};

const rules = (over: Partial<WithdrawalRules> = {}): WithdrawalRules => ({
  scale: 8,
  mark: ".",
  coin: "BTC",
  minWithdraw: "0.001",
  fee: "0.0005",
  available: "1",
  needsTag: false,
  googleBound: false,
  ...over,
});

/** Each form's check (its export's name first) with the arguments its pages build it with (both ways where they change it). */
const CASES: [keyof typeof checks, string, FormCheck][] = [
  ["loginCheck", "login", checks.loginCheck],
  ["registerCheck", "register", checks.registerCheck],
  ["resetPasswordCheck", "reset password", checks.resetPasswordCheck],
  ["changePasswordCheck", "change password", checks.changePasswordCheck],
  ["tradePasswordCheck", "trade password", checks.tradePasswordCheck],
  ["antiCodeCheck", "anti-phishing code", checks.antiCodeCheck],
  ["googleCheck", "google", checks.googleCheck],
  ["bindEmailCheck", "bind e-mail", checks.bindEmailCheck],
  ["bindPhoneCheck", "bind phone", checks.bindPhoneCheck],
  ["kycCheck", "identity", checks.kycCheck],
  ["transferCheck", "transfer", checks.transferCheck(8, ".")],
  ["transferCheck", "transfer, comma, 2 decimals", checks.transferCheck(2, ",")],
  ["withdrawalCheck", "withdrawal", checks.withdrawalCheck(rules())],
  ["withdrawalCheck", "withdrawal with a tag and Google", checks.withdrawalCheck(rules({ needsTag: true, googleBound: true }))],
  ["addAddressCheck", "add address", checks.addAddressCheck],
  ["whitelistCheck", "whitelist", checks.whitelistCheck(false)],
  ["whitelistCheck", "whitelist with Google", checks.whitelistCheck(true)],
  ["opsLoginCheck", "operator login", checks.opsLoginCheck],
  ["opsSetupCheck", "operator authenticator set-up", checks.opsSetupCheck],
  ["opsAddOperatorCheck", "add operator", checks.opsAddOperatorCheck],
  ["opsDecisionCheck", "queue decision", checks.opsDecisionCheck],
  ["opsMemberChangeCheck", "member change", checks.opsMemberChangeCheck],
  ["opsCreditCheck", "deposit credit", checks.opsCreditCheck],
  ["opsNavItemCheck", "navigation item", checks.opsNavItemCheck],
  ["opsFooterLinkCheck", "footer link", checks.opsFooterLinkCheck],
  ["opsLanguageCheck", "language", checks.opsLanguageCheck],
  ["opsCurrencyCheck", "display currency", checks.opsCurrencyCheck],
  ["spotOrderCheck", "spot order", checks.spotOrderCheck({ priceScale: 2, amountScale: 4, quoteScale: 2 }, ",")],
  ["contractOrderCheck", "contract order", checks.contractOrderCheck(1, ".")],
  ["contractLeverageCheck", "contract leverage", checks.contractLeverageCheck(100)],
  ["contractMarginCheck", "contract margin", checks.contractMarginCheck(4, ",")],
  ["contractTpslCheck", "take profit and stop loss", checks.contractTpslCheck(1, ".")],
  ["marginMoveCheck", "margin money form", checks.marginMoveCheck(8, ".")],
  ["marginMoveCheck", "margin money form, comma", checks.marginMoveCheck(2, ",")],
  ["pledgeBorrowCheck", "loan borrow form", checks.pledgeBorrowCheck(8, 8, ".")],
  ["pledgeChangeCheck", "loan repay and collateral form", checks.pledgeChangeCheck(6, ",")],
  ["stakeInvestCheck", "stake form", checks.stakeInvestCheck(6, ".")],
  ["stakeInvestCheck", "stake form, comma, more decimals than 8", checks.stakeInvestCheck(18, ",")],
  ["stakeRedeemCheck", "redemption confirmation", checks.stakeRedeemCheck(8, ".")],
  ["subscribeCheck", "subscribe form, whole lots of 10", checks.subscribeCheck(0, ".")],
  ["subscribeCheck", "subscribe form, comma, lots of 0.1", checks.subscribeCheck(1, ",")],
  ["returnApplyCheck", "return application", checks.returnApplyCheck()],
];

describe("form checks (decision 037)", () => {
  it.each(CASES)("%s (%s): the inputs' constraints are the schema's", async (_name, _label, check) => {
    expect(check.constraint).toEqual(getZodConstraint(await check.schema()));
  });

  it("covers every check the modules export", () => {
    expect(Object.keys(checks).sort()).toEqual([...new Set(CASES.map(([name]) => name))].sort());
  });
});
