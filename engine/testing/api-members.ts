import type { FastifyInstance } from "fastify";
import { expect } from "vitest";

const API = "/api/mjkj-web";

/** The admin token the API suites give their engine (`createServices({ adminToken })`). */
export const TEST_ADMIN_TOKEN = "test-admin-token-0123456789abcdef";
/** Headers of an operator call (the dev mailbox, deposits) in the API suites. */
export const ADMIN_HEADERS = { "x-admin-token": TEST_ADMIN_TOKEN };

/**
 * Registers a member by e-mail through the engine's own calls (code from the dev mailbox) and
 * logs it in: what the API suites need before they test anything else.
 */
export async function registerAndLogIn(app: FastifyInstance, email: string, deviceId: string, password = "secret123"): Promise<{ uid: string; token: string }> {
  await app.inject({ method: "GET", url: `${API}/coin/open/send/email?email=${email}&type=register` });
  const code = (await app.inject({ method: "GET", url: `${API}/dev/mailbox?destination=${email}`, headers: ADMIN_HEADERS })).json().data[0].subject.match(/\d{6}/)[0];
  const registered = (await app.inject({ method: "POST", url: `${API}/coin/open/register`, payload: { accountType: "email", email, code, password } })).json();
  expect(registered.code, registered.msg).toBe(200);
  const login = (await app.inject({ method: "POST", url: "/api/blade-auth/oauth/token", payload: { grant_type: "password", accountType: "email", email, password, deviceId } })).json();
  expect(login.code, login.msg).toBe(200);
  return { uid: registered.data.uid, token: login.data.access_token };
}
