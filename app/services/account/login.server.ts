import type { TokenGrant } from "#protocol/member";
import { EngineRefusal } from "../engine/api.server";
import { AUTH_KEY, authFromGrant, deviceIdOf } from "./auth.server";
import type { Engine } from "../engine/client.server";
import { deviceCookieHeader, deviceCookieOf } from "./device-cookie.server";
import { webEnv } from "../platform/env.server";
import { commitSession, getSession } from "../platform/session.server";

export type LoginOutcome =
  /** Logged in: `headers` set the session cookie and the new device cookie (decision 040). */
  | { kind: "ok"; headers: Headers }
  /** The account has Google 2FA: ask for the code (spec §8 pass-through "step 1 login successful"). */
  | { kind: "google" }
  | { kind: "refused"; message: string | null };

export interface LoginInput {
  accountType: "email" | "phone";
  email?: string;
  areaCode?: string;
  phone?: string;
  password: string;
  googleCode?: string;
}

/**
 * Logs in with the engine's token call and stores the tokens in the session. The browser's device
 * cookie from its last login rides along (the engine then limits this login by it alone), and the
 * one the engine answers replaces it.
 */
export async function loginWithPassword(engine: Engine, input: LoginInput): Promise<LoginOutcome> {
  const { request } = engine;
  const session = await getSession(request);
  const deviceId = deviceIdOf(session);
  const deviceCookie = await deviceCookieOf(request);
  let grant: TokenGrant;
  try {
    grant = await engine.auth.token({
      query: { tenantId: webEnv().TENANT_ID, scope: "all", type: input.accountType },
      body: { grant_type: "password", ...input, deviceId, deviceCookie },
    });
  } catch (error) {
    if (error instanceof EngineRefusal) {
      if (error.outcome.kind === "pass-through") return { kind: "google" };
      return { kind: "refused", message: error.outcome.kind === "error" ? error.outcome.message : null };
    }
    throw error;
  }
  session.set(AUTH_KEY, authFromGrant(grant));
  const headers = new Headers({ "set-cookie": await commitSession(request, session) });
  if (grant.device_cookie) headers.append("set-cookie", await deviceCookieHeader(request, grant.device_cookie));
  return { kind: "ok", headers };
}
