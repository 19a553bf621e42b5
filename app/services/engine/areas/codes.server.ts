import { endpoints } from "#protocol/endpoints";
import type { CodePurpose } from "#protocol/code-purposes";
import type { EngineCall } from "../call.server";

/** Where a code goes: an e-mail address, or a phone number with its area code. */
export type CodeTarget = { accountType: "email"; email: string } | { accountType: "phone"; areaCode: string; phone: string };

/** The withdrawal a `withdraw` code confirms (the engine binds the code to it). */
export interface CodeWithdrawal {
  coin: string;
  network: string;
  amount: string;
  address: string;
  /** The destination tag (XRP), where the withdrawal has one: the code confirms that tag only. */
  memo?: string;
}

/**
 * Sends a code for `purpose`; `call` carries the member's token for the purposes that need one.
 * A `withdraw` code names its withdrawal (`withdrawal`).
 */
export function sendCode(call: EngineCall, target: CodeTarget, purpose: CodePurpose, withdrawal?: CodeWithdrawal) {
  return target.accountType === "email"
    ? call(endpoints.sendEmailCode, { query: { email: target.email, type: purpose, ...withdrawal } })
    : call(endpoints.sendSmsCode, { query: { areaCode: target.areaCode, phone: target.phone, type: purpose, ...withdrawal } });
}

/** The account fields of a form as a code target (the form's schema has made sure they are there). */
export function codeTargetOf(value: { accountType: "email" | "phone"; email?: string; areaCode?: string; phone?: string }): CodeTarget {
  return value.accountType === "email"
    ? { accountType: "email", email: value.email ?? "" }
    : { accountType: "phone", areaCode: value.areaCode ?? "", phone: value.phone ?? "" };
}

/** How a code target is shown back to the member ("Code sent to …"). */
export function describeTarget(target: CodeTarget): string {
  return target.accountType === "email" ? target.email : `+${target.areaCode} ${target.phone}`;
}
