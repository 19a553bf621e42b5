import { endpoints } from "#protocol/endpoints";
import type { MemberInfo } from "#protocol/member";
import type { EngineCall } from "../call.server";
import type { EndpointInput } from "../endpoint-input";
import { describeTarget, sendCode, type CodeTarget, type CodeWithdrawal } from "./codes.server";

type Body<E extends keyof typeof endpoints> = EndpointInput<(typeof endpoints)[E]>["body"];

/** Security settings: passwords, anti-phishing code, bound e-mail or phone, Google 2FA. */
export function securityArea(call: EngineCall) {
  return {
    /**
     * Sends a security code to the member's own e-mail (else phone) before a sensitive change; with
     * `withdrawal`, a `withdraw` code for that withdrawal instead.
     */
    async sendSecurityCode(info: Pick<MemberInfo, "email" | "areaCode" | "phone">, withdrawal?: CodeWithdrawal) {
      const target: CodeTarget = info.email
        ? { accountType: "email", email: info.email }
        : { accountType: "phone", areaCode: info.areaCode ?? "", phone: info.phone ?? "" };
      const sent = await sendCode(call, target, withdrawal ? "withdraw" : "security", withdrawal);
      return { ...sent, destination: describeTarget(target) };
    },
    /** Sends a `bind` code to an e-mail or phone the member wants to add. */
    sendBindCode: (target: CodeTarget) => sendCode(call, target, "bind"),
    bindAccount: (body: Body<"bindAccount">) => call(endpoints.bindAccount, { body }),
    changePassword: (body: Body<"updatePassword">) => call(endpoints.updatePassword, { body }),
    setTradePassword: (body: Body<"tradePassword">) => call(endpoints.tradePassword, { body }),
    setAntiCode: (body: Body<"antiCode">) => call(endpoints.antiCode, { body }),
    /** A pending Google 2FA secret and its otpauth URI. */
    googleSetup: () => call(endpoints.googleVerification, { params: { purpose: "bind" } }),
    /** Binds Google 2FA, or resets it when it is bound: the authenticator's code and the e-mailed one. */
    bindOrResetGoogle: (input: { googleCode: string; code: string; bound: boolean }) =>
      call(endpoints.googleBindingOrReset, { params: { googleCode: input.googleCode, mode: input.bound ? "1" : "2" }, query: { code: input.code } }),
  };
}
