import { endpoints } from "#protocol/endpoints";
import type { LanguageCode } from "#protocol/languages";
import { callEndpoint, EngineRefusal } from "./api.server";
import { clientOf } from "./auth.server";

export type EngineResult<T> = { ok: true; value: T } | { ok: false; message: string | null };

/** Runs an engine call and turns a refusal into its (already translated) message. */
export async function attempt<T>(call: () => Promise<T>): Promise<EngineResult<T>> {
  try {
    return { ok: true, value: await call() };
  } catch (error) {
    if (error instanceof EngineRefusal) return { ok: false, message: error.outcome.kind === "error" ? error.outcome.message : null };
    throw error;
  }
}

/** Sends a registration (or other purpose) code to an e-mail or a phone. */
export function sendCode(
  request: Request,
  lang: LanguageCode,
  input: { accountType: "email" | "phone"; email?: string; areaCode?: string; phone?: string; purpose: "register" | "bind" | "security" | "reset" },
  token?: string,
) {
  const options = { lang, token, client: clientOf(request) };
  return attempt(() =>
    input.accountType === "email"
      ? callEndpoint(endpoints.sendEmailCode, { query: { email: input.email!, type: input.purpose } }, options)
      : callEndpoint(endpoints.sendSmsCode, { query: { areaCode: input.areaCode!, phone: input.phone!, type: input.purpose } }, options),
  );
}

export function registerMember(
  request: Request,
  lang: LanguageCode,
  body: { accountType: "email" | "phone"; email?: string; areaCode?: string; phone?: string; code: string; password: string; inviteCode?: string; tradePassword?: string; website?: string },
) {
  return attempt(() => callEndpoint(endpoints.register, { body }, { lang, client: clientOf(request) }));
}

/** Sets a new password with a `reset` code (the forgotten-password page); every session ends. */
export function resetPassword(
  request: Request,
  lang: LanguageCode,
  body: { accountType: "email" | "phone"; email?: string; areaCode?: string; phone?: string; code: string; password: string; password1: string },
) {
  return attempt(() => callEndpoint(endpoints.resetPassword, { body }, { lang, client: clientOf(request) }));
}
