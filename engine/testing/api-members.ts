import type { FastifyInstance } from "fastify";
import { endpoints } from "../../protocol/endpoints";
import { ApiClient, type Caller } from "./api-client";

/** The admin token the API suites give their engine (`createServices({ adminToken })`). */
export const TEST_ADMIN_TOKEN = "test-admin-token-0123456789abcdef";
/** Headers of an operator call, for suites that call the engine over HTTP (the web tier's). */
export const ADMIN_HEADERS = { "x-admin-token": TEST_ADMIN_TOKEN };
/** The caller of an operator call (the dev mailbox, deposits) in the API suites. */
export const OPERATOR = { admin: TEST_ADMIN_TOKEN };

/** The six-digit code of the last code message the dev mailbox holds for an address (its wallet mails are passed over). */
export async function lastMailedCode(client: ApiClient, destination: string, operator: Caller = OPERATOR): Promise<string> {
  const mails = await client.data(endpoints.devMailbox, { query: { destination } }, operator);
  for (const mail of mails) {
    // A code's subject ends with it, in every language.
    const code = mail.subject.match(/(?<!\d)(\d{6})$/);
    if (code) return code[1]!;
  }
  throw new Error(`no code was mailed to ${destination}`);
}

/**
 * Registers a member by e-mail through the engine's own calls (the code from the dev mailbox);
 * answers its UID. A refusal throws with the engine's message. Used by the API suites, the web
 * tier's route tests and the two-web-process engine alike.
 */
export async function registerByEmail(
  client: ApiClient,
  email: string,
  { password = "secret123", operator = OPERATOR }: { password?: string; operator?: Caller } = {},
): Promise<string> {
  await client.data(endpoints.sendEmailCode, { query: { email, type: "register" } });
  const code = await lastMailedCode(client, email, operator);
  return (await client.data(endpoints.register, { body: { accountType: "email", email, code, password } })).uid;
}

/**
 * Registers a member by e-mail (`registerByEmail`) and logs it in: what the API suites need
 * before they test anything else. `engine`: the app, or a running engine's base URL (whose admin
 * token `operator` then names).
 */
export async function registerAndLogIn(
  engine: FastifyInstance | string,
  email: string,
  deviceId: string,
  { password = "secret123", operator = OPERATOR }: { password?: string; operator?: Caller } = {},
): Promise<{ uid: string; token: string }> {
  const client = new ApiClient(engine);
  const uid = await registerByEmail(client, email, { password, operator });
  const login = await client.data(endpoints.token, { body: { grant_type: "password", accountType: "email", email, password, deviceId } });
  return { uid, token: login.access_token };
}
