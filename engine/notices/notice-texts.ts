import type { LanguageCode } from "../../protocol/languages";
import type { NoticeType } from "../../protocol/endpoints/notices";
import { engineText, type TextKey } from "../locales/engine-texts";

/**
 * A notification's text in the reader's language (decision 031): rows keep a type and its
 * values, and each read renders them with the engine's `notice.*` texts, so a member who
 * switches language reads every notification, old ones too, in the new one. An order's side
 * picks one of two texts (word order differs by language).
 */
export function noticeText(lang: LanguageCode, type: NoticeType, params: Record<string, string>): string {
  const side = params.side === "sell" ? "sell" : "buy";
  const key: TextKey =
    type === "order_filled"
      ? `notice.order_filled_${side}`
      : type === "stop_triggered"
        ? `notice.stop_triggered_${side}`
        : type === "contract_liquidated"
          ? `notice.contract_liquidated_${params.side === "short" ? "short" : "long"}`
          : type === "contract_stop_triggered" || type === "contract_stop_failed"
            ? `notice.${type}_${params.fired === "take_profit" ? "take_profit" : params.fired === "stop_loss" ? "stop_loss" : "stop"}`
            : type === "withdrawal_rejected" && !params.reason
              ? "notice.withdrawal_rejected_plain"
              : type === "kyc_rejected" && !params.reason
                ? "notice.kyc_rejected_plain"
                : (type === "margin_warning" || type === "margin_liquidated") && params.account === "all"
                  ? `notice.${type}_cross`
                  : `notice.${type}`;
  return engineText(lang, key, params);
}
