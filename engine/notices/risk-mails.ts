import { LANGUAGE_CODES, type LanguageCode } from "../../protocol/languages";
import type { Command } from "../core/exchange/commands";
import type { Accepted, Product, ProjectionContext } from "../journal/product";
import { engineText, type TextKey } from "../locales/engine-texts";
import { ANTI_CODE_SLOT, type WalletMailText } from "../wallet/wallet-mail-texts";
import { MEMBER_ID, WALLET_MAIL_ROWS } from "../wallet/wallet-mails";
import { coreNotices, type NewNotice } from "./core-notices";
import { noticeText } from "./notice-texts";

/** The notices a member is also mailed: their money is at risk, or was sold to repay a debt. */
const RISK_SUBJECTS: Partial<Record<NewNotice["type"], TextKey>> = {
  margin_warning: "mail.margin_warning_subject",
  margin_liquidated: "mail.margin_liquidated_subject",
  loan_margin_call: "mail.loan_margin_call_subject",
  loan_liquidated: "mail.loan_liquidated_subject",
};

/** A risk notice's mail in one language: its subject, the notification's text, and what to do. */
export function riskMailText(notice: NewNotice, lang: LanguageCode): WalletMailText {
  const t = (key: TextKey, params: Record<string, string> = {}) => engineText(lang, key, params);
  return {
    subject: t(RISK_SUBJECTS[notice.type]!),
    body: [noticeText(lang, notice.type, notice.params), t("mail.risk_footer")].join("\n"),
    antiLine: t("mail.anti_code_line", { antiCode: ANTI_CODE_SLOT }),
  };
}

/**
 * The e-mails of a margin warning, a margin liquidation, a loan's margin call and a loan's
 * liquidation (issue 31: "a warning: notification, e-mail, private topic"; decisions 050, 051),
 * through the outbox like the wallet's (decision 030): written with the tick's rows, once per
 * command (its sequence number keys each), in the member's language with their anti-phishing line.
 * `quiet`: members never mailed (the simulator's bots).
 */
export function riskMailProduct(quiet: ReadonlySet<string> = new Set()): Product {
  return {
    name: "risk mails",
    commands: [],
    follows: ["margin.tick", "pledge.tick"],

    project(): void {},

    follow(command: Command, outcome: Accepted, ctx: ProjectionContext): void {
      const notices = coreNotices(command, outcome.events, {
        asset: (asset) => ctx.core.scaleOf(asset),
        price: (symbol) => ctx.core.markets.get(symbol)?.config.priceScale,
        contractPrice: (symbol) => ctx.core.contracts.get(symbol)?.config.spec.priceScale,
      });
      for (const notice of notices) {
        if (!RISK_SUBJECTS[notice.type] || !MEMBER_ID.test(notice.memberId) || quiet.has(notice.memberId)) continue;
        const texts = Object.fromEntries(LANGUAGE_CODES.map((lang) => [lang, riskMailText(notice, lang)])) as Record<LanguageCode, WalletMailText>;
        ctx.batch
          .rows(WALLET_MAIL_ROWS)
          .add({ key: `risk:${ctx.seq}:${notice.type}:${notice.memberId}:${notice.orderCode ?? ""}`, member: notice.memberId, at: ctx.stamp, texts });
      }
    },

    async restoreFromTables(): Promise<void> {},
  };
}
