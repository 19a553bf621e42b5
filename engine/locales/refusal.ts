import type { LanguageCode } from "../../protocol/languages";
import { reasonOfResultCode, type RefusalReason } from "../../protocol/refusal-reasons";
import { engineText, type TextKey } from "./engine-texts";

/**
 * A request an area service turns down on purpose (not a bug): the result code the caller is
 * answered with, and the text as a catalog key, translated at the HTTP edge into the request's
 * language. Services throw it so they need neither the request nor its language
 * (docs/decisions/020-engine-area-shape.md). Words that are not in the catalog (operator calls,
 * the configuration tables' column checks) are carried as they are.
 */
export class Refusal extends Error {
  private constructor(
    readonly code: number,
    private readonly text: { key: TextKey; params: Record<string, string | number> } | { plain: string },
    /** The machine-readable reason the answer carries beside the words (`protocol/refusal-reasons.ts`). */
    readonly reason: RefusalReason,
  ) {
    super("key" in text ? text.key : text.plain);
    this.name = "Refusal";
  }

  /**
   * A refusal worded by the catalog entry `key` (with its `{{params}}`). Its reason is the key's
   * (`REASON_OF_KEY`), else `reason`, else the result code's generic one.
   */
  static of(code: number, key: TextKey, params: Record<string, string | number> = {}, reason?: RefusalReason): Refusal {
    return new Refusal(code, { key, params }, reason ?? REASON_OF_KEY[key] ?? reasonOfResultCode(code));
  }

  /** A refusal in words outside the catalog (operators', generic table checks): never translated. */
  static plain(code: number, message: string, reason?: RefusalReason): Refusal {
    return new Refusal(code, { plain: message }, reason ?? reasonOfResultCode(code));
  }

  /** Seconds until the same request may succeed (a `Retry-After` header on the answer), if known. */
  retryAfterSeconds: number | null = null;

  /** This refusal, answered with `Retry-After: seconds`. */
  retryAfter(seconds: number): this {
    this.retryAfterSeconds = seconds;
    return this;
  }

  /** The words the caller reads, in their language. */
  messageIn(lang: LanguageCode): string {
    return "key" in this.text ? engineText(lang, this.text.key, this.text.params) : this.text.plain;
  }
}

/** The reason code of each catalog text a refusal is worded by (one text, one reason). */
export const REASON_OF_KEY: Partial<Record<TextKey, RefusalReason>> = {
  "errors.unauthorized": "UNAUTHORIZED",
  "errors.bad_credentials": "BAD_CREDENTIALS",
  "errors.account_frozen": "ACCOUNT_FROZEN",
  "errors.too_many_attempts": "TOO_MANY_ATTEMPTS",
  "errors.google_code_wrong": "GOOGLE_CODE_WRONG",
  "withdrawals.trade_password_not_set": "TRADE_PASSWORD_NOT_SET",
  "withdrawals.trade_password_wrong": "TRADE_PASSWORD_WRONG",
  "withdrawals.network_unknown": "WITHDRAWAL_NETWORK_UNKNOWN",
  "withdrawals.disabled": "WITHDRAWAL_DISABLED",
  "withdrawals.address_invalid": "ADDRESS_INVALID",
  "withdrawals.tag_invalid": "ADDRESS_INVALID",
  "withdrawals.below_minimum": "WITHDRAWAL_BELOW_MINIMUM",
  "withdrawals.too_precise": "AMOUNT_PRECISION",
  "withdrawals.daily_limit": "WITHDRAWAL_DAILY_LIMIT",
  "withdrawals.not_whitelisted": "ADDRESS_NOT_WHITELISTED",
  "withdrawals.whitelist_waiting": "ADDRESS_WHITELIST_WAITING",
  "address_book.duplicate": "ADDRESS_DUPLICATE",
  "address_book.full": "ADDRESS_BOOK_FULL",
  "address_book.unknown": "ADDRESS_UNKNOWN",
  "address_book.no_tag": "ADDRESS_INVALID",
  "errors.code_wait": "CODE_WAIT",
  "errors.code_wrong": "CODE_WRONG",
  "errors.code_wrong_withdrawal": "CODE_WRONG",
  "errors.code_expired": "CODE_EXPIRED",
  "errors.code_locked": "CODE_LOCKED",
  "errors.account_taken": "ACCOUNT_TAKEN",
  "errors.account_unknown": "ACCOUNT_UNKNOWN",
  "errors.invite_unknown": "INVITE_UNKNOWN",
  "errors.honeypot": "REGISTRATION_REFUSED",
  "errors.old_password_wrong": "OLD_PASSWORD_WRONG",
  "errors.device_unknown": "DEVICE_UNKNOWN",
  "errors.not_yours": "NOT_YOURS",
  "errors.google_bound": "GOOGLE_BOUND",
  "errors.google_not_bound": "GOOGLE_NOT_BOUND",
  "errors.upload_missing": "UPLOAD_MISSING",
  "errors.upload_too_large": "UPLOAD_TOO_LARGE",
  "errors.upload_type": "UPLOAD_TYPE",
  "errors.upload_unreadable": "UPLOAD_UNREADABLE",
  "errors.upload_quota": "UPLOAD_QUOTA",
  "errors.upload_daily": "UPLOAD_QUOTA",
  "errors.demo_upload": "DEMO_LOCKED",
  "errors.kyc_pending": "KYC_PENDING",
  "errors.already_bound": "ALREADY_BOUND",
  "errors.phone_invalid": "PHONE_INVALID",
  "errors.demo_locked": "DEMO_LOCKED",
  "favourites.unknown_symbol": "FAVOURITE_UNKNOWN_SYMBOL",
  "wallet.network_unknown": "DEPOSIT_NETWORK_UNKNOWN",
  "wallet.deposit_disabled": "DEPOSIT_DISABLED",
  "wallet.address_pool_empty": "DEPOSIT_ADDRESS_POOL_EMPTY",
  "market.unknown_symbol": "MARKET_UNKNOWN",
  "orders.not_found": "ORDER_NOT_FOUND",
  "orders.export_too_many": "EXPORT_TOO_MANY",
};
