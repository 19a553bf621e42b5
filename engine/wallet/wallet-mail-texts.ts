import { LANGUAGE_CODES, type LanguageCode } from "../../protocol/languages";
import { decimals, fromMinor, toMinor } from "../../protocol/money";
import type { WalletNotice } from "../../protocol/realtime";
import { engineText, type TextKey } from "../locales/engine-texts";

/**
 * Where the member's anti-phishing code goes in `antiLine`: the projection writes the mail
 * without reading the member, so the database puts the code in (decision 030).
 */
export const ANTI_CODE_SLOT = "{{antiCode}}";

/** One language's mail of a notice: its subject, its body, and the anti-phishing line put before the body when the member has a code. */
export interface WalletMailText {
  subject: string;
  body: string;
  antiLine: string;
}

type WithdrawalState = Extract<WalletNotice, { kind: "withdrawal" }>["state"];

const WITHDRAWAL_TEXTS: Record<WithdrawalState, { subject: TextKey; body: TextKey }> = {
  review: { subject: "mail.withdrawal_review_subject", body: "mail.withdrawal_review_body" },
  approved: { subject: "mail.withdrawal_approved_subject", body: "mail.withdrawal_approved_body" },
  broadcast: { subject: "mail.withdrawal_broadcast_subject", body: "mail.withdrawal_broadcast_body" },
  completed: { subject: "mail.withdrawal_completed_subject", body: "mail.withdrawal_completed_body" },
  rejected: { subject: "mail.withdrawal_rejected_subject", body: "mail.withdrawal_rejected_body" },
  cancelled: { subject: "mail.withdrawal_cancelled_subject", body: "mail.withdrawal_cancelled_body" },
};

/** A notice's mail in one language: a sentence of what happened, then one line per fact. */
export function walletMailText(notice: WalletNotice, lang: LanguageCode): WalletMailText {
  const t = (key: TextKey, params: Record<string, string> = {}) => engineText(lang, key, params);
  const money = { amount: notice.amount, coin: notice.coin };
  const lines: string[] = [];
  let subject: string;
  if (notice.kind === "deposit") {
    subject = t("mail.deposit_subject", money);
    lines.push(t("mail.deposit_body", money), t("mail.line_network", { network: notice.network }), t("mail.line_txid", { txid: notice.txid }));
  } else {
    const texts = WITHDRAWAL_TEXTS[notice.state];
    subject = t(texts.subject, money);
    lines.push(t(texts.body, { ...money, total: sumOf(notice.amount, notice.fee) }));
    if (notice.reason !== undefined) lines.push(t("mail.line_reason", { reason: notice.reason }));
    lines.push(t("mail.line_withdrawal", { id: notice.id }), t("mail.line_fee", { fee: notice.fee, coin: notice.coin }));
    if (notice.network !== undefined) lines.push(t("mail.line_network", { network: notice.network }));
    if (notice.address !== undefined) lines.push(t("mail.line_address", { address: notice.address }));
    if (notice.memo !== undefined) lines.push(t("mail.line_memo", { memo: notice.memo }));
    if (notice.txid !== undefined) lines.push(t("mail.line_txid", { txid: notice.txid }));
    // The one mail a stranger with the member's password would set off: say what to do.
    if (notice.state === "review") lines.push(t("mail.withdrawal_review_warning"));
  }
  return { subject, body: lines.join("\n"), antiLine: t("mail.anti_code_line", { antiCode: ANTI_CODE_SLOT }) };
}

/** A notice's mail in every language (the member's is chosen when it is written). */
export function walletMailTexts(notice: WalletNotice): Record<LanguageCode, WalletMailText> {
  return Object.fromEntries(LANGUAGE_CODES.map((lang) => [lang, walletMailText(notice, lang)])) as Record<LanguageCode, WalletMailText>;
}

/** Two exact decimals added (what a withdrawal held: its amount and its fee). */
function sumOf(a: string, b: string): string {
  const scale = Math.max(decimals(a), decimals(b));
  return fromMinor(toMinor(a, scale) + toMinor(b, scale), scale);
}
