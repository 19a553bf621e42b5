import { expect } from "@playwright/test";
import { HEADERS } from "../../protocol/endpoint";
import { endpoints } from "../../protocol/endpoints";
import { adminHeaders, ENGINE_URL, lastMailId, latestCode } from "./support";

export const TRON_ADDRESS = "TNPeeaaFB7K9cmo4uQpcU32zGK8G1NYqeL";
/** The transaction password `withdrawingMember` sets. */
export const WITHDRAWING_TRADE_PASSWORD = "246810";
const TRADE_PASSWORD = WITHDRAWING_TRADE_PASSWORD;
const API = `${ENGINE_URL}/api/mjkj-web/`;

/** One engine call (as the member when a token is given); answers the envelope. */
async function call(path: string, init: { method?: string; query?: Record<string, string>; body?: unknown; token?: string }) {
  const url = new URL(path, API);
  for (const [k, v] of Object.entries(init.query ?? {})) url.searchParams.set(k, v);
  const res = await fetch(url, {
    method: init.method ?? "GET",
    headers: { "content-type": "application/json", ...(init.token ? { [HEADERS.token]: `bearer ${init.token}` } : {}) },
    ...(init.body === undefined ? {} : { body: JSON.stringify(init.body) }),
  });
  return (await res.json()) as { code: number; msg: string; data: unknown };
}

/** A member's API session with a transaction password set: what a withdrawal asks for. */
export async function withdrawingMember(email: string, password: string) {
  const login = await call(endpoints.token.path, {
    method: "POST",
    body: { grant_type: "password", accountType: "email", email, password, deviceId: `e2e-api-${Date.now()}` },
  });
  expect(login.code, login.msg).toBe(200);
  const token = (login.data as { access_token: string }).access_token;
  /** A fresh security code, or the code of the withdrawal `withdrawal` names (coin, network, address, amount). */
  const securityCode = async (withdrawal: Record<string, string> = {}) => {
    const after = await lastMailId(email);
    await new Promise((r) => setTimeout(r, 2_100)); // the e2e engine's resend pause (CODE_RESEND_SECONDS=2)
    const type = Object.keys(withdrawal).length ? "withdraw" : "security";
    const sent = await call(endpoints.sendEmailCode.path, { query: { email, type, ...withdrawal }, token });
    expect(sent.code, sent.msg).toBe(200);
    return (await latestCode(email, after)).code;
  };
  const set = await call(endpoints.tradePassword.path, { method: "POST", body: { tradePassword: TRADE_PASSWORD, code: await securityCode() }, token });
  expect(set.code, set.msg).toBe(200);
  return {
    /** Asks to withdraw USDT over TRC20 through the engine's API; answers the withdrawal's id. */
    async withdraw(amount: string): Promise<string> {
      const answer = await call(endpoints.withdraw.path, {
        method: "POST",
        body: {
          coin: "USDT",
          network: "TRC20",
          address: TRON_ADDRESS,
          amount,
          tradePassword: TRADE_PASSWORD,
          code: await securityCode({ coin: "USDT", network: "TRC20", address: TRON_ADDRESS, amount }),
          idempotencyKey: `e2e-wd-${Date.now()}-${Math.random().toString(36).slice(2, 8)}`,
        },
        token,
      });
      expect(answer.code, answer.msg).toBe(200);
      return (answer.data as { id: string }).id;
    },
  };
}

/** An operator's review of a withdrawal through the admin API. */
export async function reviewWithdrawal(id: string, decision: "approve" | "reject", reason?: string): Promise<void> {
  const res = await fetch(`${ENGINE_URL}${endpoints.adminWithdrawalReview.path}`, {
    method: "POST",
    headers: { "content-type": "application/json", ...adminHeaders() },
    body: JSON.stringify({ id, decision, ...(reason ? { reason } : {}) }),
  });
  expect(res.status).toBe(200);
}
