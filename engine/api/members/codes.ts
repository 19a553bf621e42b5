import type { FastifyRequest } from "fastify";
import type { CodePurpose } from "../../../protocol/code-purposes";
import { endpoints } from "../../../protocol/endpoints";
import { requestLanguage } from "../../locales/engine-texts";
import type { WithdrawalDetails } from "../../members/verification-codes";
import type { ApiContext } from "../context";
import { bearerToken, resolveMember } from "../member-endpoint";
import { operatorEndpoint } from "../operator-endpoint";
import { registerEndpoint } from "../register";

/** Routes that send six-digit codes by e-mail and text message (through the outbox). */
export function registerCodeRoutes(api: ApiContext): void {
  const { app, apiHead, members } = api;
  registerEndpoint(app, apiHead, endpoints.sendEmailCode, async ({ query, request }) =>
    sendCode(api, request, {
      channel: "email",
      destination: query.email,
      purpose: query.type,
      lookup: { email: query.email },
      ...withdrawalOf(query),
    }),
  );
  registerEndpoint(app, apiHead, endpoints.sendSmsCode, async ({ query, request }) => {
    await members.refuseBadPhone({ accountType: "phone", areaCode: query.areaCode, phone: query.phone });
    return sendCode(api, request, {
      channel: "sms",
      destination: `+${query.areaCode} ${query.phone}`,
      purpose: query.type,
      lookup: { areaCode: query.areaCode, phone: query.phone },
      ...withdrawalOf(query),
    });
  });
}

/**
 * The dev mailbox: with no real delivery configured, codes go to the outbox table only, and this
 * endpoint (and `npm run admin -- mailbox <address>`) shows what was sent, to the operator only:
 * it holds every address's registration and reset codes, so it needs the admin token (issue 9).
 * Never served when delivery is real.
 */
export function registerMailboxRoutes(api: ApiContext): void {
  if (!api.services.devMailbox) return;
  operatorEndpoint(api, endpoints.devMailbox, ({ query }) => api.members.codes.sentTo(query.destination));
}

/** Bind, security and withdrawal codes are asked for by a logged-in member; the others by anyone. */
const NEEDS_MEMBER: ReadonlySet<CodePurpose> = new Set(["bind", "security", "withdraw"]);

/** The withdrawal a `withdraw` code confirms (the query's schema requires its fields for that purpose). */
function withdrawalOf(query: { type: CodePurpose; coin?: string; network?: string; amount?: string; address?: string; memo?: string }): {
  withdrawal?: WithdrawalDetails;
} {
  const { type, coin, network, amount, address, memo } = query;
  return type === "withdraw" && coin && network && amount && address
    ? { withdrawal: { coin, network, amount, address, ...(memo !== undefined ? { memo } : {}) } }
    : {};
}

async function sendCode(
  api: ApiContext,
  request: FastifyRequest,
  input: {
    channel: "email" | "sms";
    destination: string;
    purpose: CodePurpose;
    lookup: { email?: string; areaCode?: string; phone?: string };
    withdrawal?: WithdrawalDetails;
  },
) {
  const owner = await api.members.findByAccount(input.lookup);
  const member = NEEDS_MEMBER.has(input.purpose) ? await resolveMember(api, request) : null;
  return api.members.codes.send({
    ...input,
    owner,
    memberId: member?.memberId ?? null,
    hasToken: bearerToken(request) !== null,
    address: request.ip,
    lang: requestLanguage(request.headers),
    now: member?.now ?? api.services.now(),
  });
}
