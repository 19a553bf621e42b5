import type { FastifyRequest } from "fastify";
import type * as z from "zod";
import { HEADERS, type Endpoint } from "../../protocol/endpoints";
import type { LanguageCode } from "../../protocol/languages";
import { ResultCode } from "../../protocol/result-codes";
import { requestLanguage } from "../locales/engine-texts";
import { Refusal } from "../locales/refusal";
import type { AuthedMember } from "../members/sessions";
import type { ApiContext, ApiServices } from "./context";
import { registerEndpoint, type EndpointInput } from "./register";

/** What every member endpoint's handler is given besides its parsed input. */
export interface MemberCall extends AuthedMember {
  /** The language of the request's texts (its `lang` header). */
  lang: LanguageCode;
  /** The clock's time when the request was taken up: one value for the whole call. */
  now: number;
  /** Whether the caller is the install's shared demo member (decision 013). */
  demo: boolean;
}

export interface MemberEndpointOptions {
  /**
   * The call changes security settings (password, codes, 2FA, bindings, devices, KYC): the demo
   * member is refused, as its login is public and one visitor must not lock out the next.
   */
  securityChange?: boolean;
}

export type MemberHandler<E extends Endpoint> = (input: EndpointInput<E> & MemberCall) => Promise<z.input<E["response"]>>;

/**
 * Registers an endpoint only a logged-in member may call: after the input is parsed, the token's
 * member is resolved (else 401), and, for a security change, the demo member refused (403).
 */
export function memberEndpoint<E extends Endpoint>(api: ApiContext, endpoint: E, handler: MemberHandler<E>, options: MemberEndpointOptions = {}): void {
  registerEndpoint(api.app, api.apiHead, endpoint, async (input) => {
    const call = await resolveMember(api, input.request);
    if (options.securityChange && call.demo) throw Refusal.of(ResultCode.FORBIDDEN, "errors.demo_locked");
    return handler({ ...input, ...call });
  });
}

/**
 * The member behind the request's token: the token's session must exist, be unrevoked and
 * unexpired. Anything else answers 401, which the web tier turns into a logout (spec §4).
 * For routes that are not plain member endpoints (a file answer, a code that needs a member only
 * for some purposes).
 */
export async function resolveMember(api: Pick<ApiContext, "members" | "services">, request: FastifyRequest): Promise<MemberCall> {
  const lang = requestLanguage(request.headers);
  const now = api.services.now();
  const token = bearerToken(request);
  const member = token ? await api.members.authenticate(token, now) : null;
  if (!member) throw Refusal.of(ResultCode.UNAUTHORIZED, "errors.unauthorized");
  return { ...member, lang, now, demo: isDemoMember(api.services, member.memberId) };
}

/** The bearer token of a request (spec §7: `blade-auth: bearer <token>`), or null. */
export function bearerToken(request: FastifyRequest): string | null {
  const header = request.headers[HEADERS.token];
  const value = Array.isArray(header) ? header[0] : header;
  const match = value?.match(/^bearer\s+([A-Za-z0-9_-]{20,200})$/i);
  return match?.[1] ?? null;
}

/** Whether this is the shared demo member of a demo install (decision 013). */
export function isDemoMember(services: Pick<ApiServices, "demoMemberId">, memberId: string): boolean {
  return services.demoMemberId !== null && memberId === services.demoMemberId;
}
