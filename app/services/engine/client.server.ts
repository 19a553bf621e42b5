import { redirect } from "@remix-run/node";
import type { LanguageCode } from "#protocol/languages";
import type { StoredAuth } from "../account/auth.server";
import { detectLanguage } from "../platform/i18n.server";
import { authArea } from "./areas/auth.server";
import { favouritesArea } from "./areas/favourites.server";
import { kycArea } from "./areas/kyc.server";
import { marketArea } from "./areas/market.server";
import { memberArea } from "./areas/member.server";
import { noticesArea } from "./areas/notices.server";
import { securityArea } from "./areas/security.server";
import { spotArea } from "./areas/spot.server";
import { contractMarketArea, contractsArea } from "./areas/contracts.server";
import { walletArea } from "./areas/wallet.server";
import { marginArea } from "./areas/margin.server";
import { loanMarketArea, pledgeArea } from "./areas/pledge.server";
import { stakeArea, stakeMarketArea } from "./areas/stake.server";
import { subscriptionArea, subscriptionMarketArea } from "./areas/subscription.server";
import { attempt, bindCall, pageAnswerFor } from "./call.server";
import { memberSession, type RequestScope } from "./member-session.server";

/**
 * The engine as one request sees it (docs/decisions/019-web-engine-client.md): made once per
 * loader or action, it knows the visitor's language, the browser (forwarded for the engine's
 * limits and login log) and, for a member, the token, refreshed when due. Calls are grouped by
 * area; each area lives in `areas/` and is typed from its endpoints' schemas.
 *
 * `headers` collects the Set-Cookie headers this request must answer with (the refreshed token's
 * session cookie): `withEngine`/`withMember` (route.server.ts) add them to whatever the loader or
 * action answers, so no answer can drop them.
 */
export interface Engine {
  readonly lang: LanguageCode;
  readonly request: Request;
  /** The member as stored in the session, or null for a visitor. */
  readonly signedIn: StoredAuth["member"] | null;
  /** Set-Cookie headers the answer must carry. */
  readonly headers: Headers;
  /** Runs engine calls for a form: a refusal becomes `{ ok: false, message }`. */
  readonly attempt: typeof attempt;
  /** Runs a non-engine step under the client's rules (the unavailable page, the logout redirect). */
  guard<T>(run: () => Promise<T>): Promise<T>;
  readonly market: ReturnType<typeof marketArea>;
  readonly contractMarket: ReturnType<typeof contractMarketArea>;
  /** Crypto loans' products and calculator (anyone's). */
  readonly loanMarket: ReturnType<typeof loanMarketArea>;
  /** Staking's products (anyone's). */
  readonly stakeMarket: ReturnType<typeof stakeMarketArea>;
  /** New-coin and ETF subscription projects (anyone's). */
  readonly subscriptionMarket: ReturnType<typeof subscriptionMarketArea>;
  readonly auth: ReturnType<typeof authArea>;
  /** This engine with the member's areas, or null for a visitor. */
  asMember(): MemberEngine | null;
}

export interface MemberEngine extends Engine {
  readonly signedIn: StoredAuth["member"];
  /** The member's token, for the few calls that are not protocol envelopes (CSV download). */
  readonly token: string;
  readonly member: ReturnType<typeof memberArea>;
  readonly security: ReturnType<typeof securityArea>;
  readonly kyc: ReturnType<typeof kycArea>;
  readonly spot: ReturnType<typeof spotArea>;
  readonly contracts: ReturnType<typeof contractsArea>;
  readonly favourites: ReturnType<typeof favouritesArea>;
  readonly wallet: ReturnType<typeof walletArea>;
  readonly margin: ReturnType<typeof marginArea>;
  readonly pledge: ReturnType<typeof pledgeArea>;
  readonly stake: ReturnType<typeof stakeArea>;
  readonly subscription: ReturnType<typeof subscriptionArea>;
  readonly notices: ReturnType<typeof noticesArea>;
}

/** The engine client of this request, for a visitor or a member. */
export async function engineFor(scope: RequestScope): Promise<Engine> {
  const [lang, session] = await Promise.all([detectLanguage(scope.request), memberSession(scope)]);
  const headers = new Headers();
  if (session?.refreshedCookie) headers.append("set-cookie", session.refreshedCookie);
  const visitor = bindCall({ request: scope.request, lang });
  const engine: Engine = {
    lang,
    request: scope.request,
    signedIn: session?.auth.member ?? null,
    headers,
    attempt,
    async guard(run) {
      try {
        return await run();
      } catch (error) {
        throw await pageAnswerFor({ request: scope.request, lang, token: session?.auth.accessToken }, error);
      }
    },
    market: marketArea(visitor),
    contractMarket: contractMarketArea(visitor),
    loanMarket: loanMarketArea(visitor),
    stakeMarket: stakeMarketArea(visitor),
    subscriptionMarket: subscriptionMarketArea(visitor),
    auth: authArea(visitor),
    asMember: () => member,
  };
  let member: MemberEngine | null = null;
  if (session) {
    const call = bindCall({ request: scope.request, lang, token: session.auth.accessToken });
    member = {
      ...engine,
      signedIn: session.auth.member,
      token: session.auth.accessToken,
      member: memberArea(call),
      security: securityArea(call),
      kyc: kycArea(call),
      spot: spotArea(call),
      contracts: contractsArea(call),
      favourites: favouritesArea(call),
      wallet: walletArea(call),
      margin: marginArea(call),
      pledge: pledgeArea(call),
      stake: stakeArea(call),
      subscription: subscriptionArea(call),
      notices: noticesArea(call),
    };
  }
  return engine;
}

/** The engine client of a member's request; a visitor is sent to the login page, which comes back here. */
export async function memberEngine(scope: RequestScope): Promise<MemberEngine> {
  return requireMember(await engineFor(scope));
}

/** This request's member client, or (a visitor) a thrown redirect to the login page that comes back here. */
export function requireMember(engine: Engine): MemberEngine {
  const member = engine.asMember();
  if (member) return member;
  const url = new URL(engine.request.url);
  throw redirect(`/user/login?redirectTo=${encodeURIComponent(url.pathname + url.search)}`);
}
