import { endpoints } from "#protocol/endpoints";
import type { OperatorRole, OperatorView } from "#protocol/operators";
import { totpCode } from "../../engine/core/members/totp";
import { opsSignInCookie } from "../services/ops/ops-session.server";
import { Browser } from "./route-call";
import type { TestExchange } from "./test-exchange";

/** The password `signInOperator` gives the operators it makes (the console asks for 12 characters or more). */
export const OPERATOR_PASSWORD = "correct horse battery staple";

export interface SignedInOperator {
  /** The operator as the engine lists it. */
  operator: OperatorView;
  /** Their session token (`x-operator-token`), for calls straight to the engine. */
  token: string;
  /** The `Set-Cookie` of the console's session cookie (`__ops`) holding that token. */
  cookie: string;
  /** A browser without JavaScript that sends that cookie (`Browser`). */
  browser: Browser;
}

/**
 * An operator of the console, signed in (decision 043): made through the engine with the admin
 * token (the CLI's way), then logged in with their password; that first login answers the
 * authenticator's secret, and its current code completes the set-up and opens the session. A code
 * is good for one login per operator and 30-second step: sign each operator in once per test file
 * and keep what this answers.
 *
 *     const admin = await signInOperator(exchange, { email: "admin@ops.example", role: "admin" });
 *     const page = await admin.browser.get(operatorsRoute.loader, "/ops/operators");
 */
export async function signInOperator(
  exchange: TestExchange,
  { email, role, name = `The ${role}`, password = OPERATOR_PASSWORD }: { email: string; role: OperatorRole; name?: string; password?: string },
): Promise<SignedInOperator> {
  const operator = await exchange.api.data(endpoints.opsOperatorAdd, { body: { email, name, role, password } }, exchange.operator);
  const first = await exchange.api.data(endpoints.opsLogin, { body: { email, password } });
  if (!("setup" in first)) throw new Error(`the first login of ${email} did not set up the authenticator`);
  const done = await exchange.api.data(endpoints.opsCompleteSetup, { body: { ticket: first.setup.ticket, totp: totpCode(first.setup.secret, Date.now()) } });
  if (!("session" in done)) throw new Error(`the set-up of ${email} opened no session`);
  const token = done.session.token;
  const cookie = await opsSignInCookie(new Request("http://localhost/ops"), token);
  const browser = new Browser();
  // The browser keeps what an answer sets: one that only sets the console's cookie.
  await browser.get(() => new Response(null, { status: 204, headers: { "set-cookie": cookie } }), "/ops");
  return { operator: operator as OperatorView, token, cookie, browser };
}
