import { randomBytes } from "node:crypto";
import { expect, type Page } from "@playwright/test";
import { HEADERS } from "../../protocol/endpoint";
import { endpoints } from "../../protocol/endpoints";
import type { OperatorRole } from "../../protocol/operators";
import { totpCode } from "../../engine/core/members/totp";
import { adminHeaders, ENGINE_URL } from "./support";

export const OPERATOR_PASSWORD = "console password 12345";

/** An operator made through the operator API with the data folder's token (as `npm run admin -- operator add` does). */
export async function createOperator(role: OperatorRole, tag: string): Promise<{ email: string; name: string }> {
  const email = `${tag}-${Date.now()}-${randomBytes(3).toString("hex")}@ops.example`;
  const name = `${tag} ${role}`;
  const res = await fetch(`${ENGINE_URL}${endpoints.opsOperatorAdd.path}`, {
    method: "POST",
    headers: { "content-type": "application/json", ...adminHeaders() },
    body: JSON.stringify({ email, name, role, password: OPERATOR_PASSWORD }),
  });
  expect(res.status, await res.clone().text()).toBe(200);
  return { email, name };
}

/** A 30-second step of the authenticator that the operator has not logged in with: waits for the next one when needed. */
async function freshCode(secret: string, used: Set<string>): Promise<string> {
  for (;;) {
    const code = totpCode(secret, Date.now());
    if (!used.has(code)) {
      used.add(code);
      return code;
    }
    await new Promise((r) => setTimeout(r, 1_000));
  }
}

/**
 * Logs an operator in through the console's login page, setting the authenticator up at the first
 * login (reading the key the page shows, as a person types it into their app); answers the secret.
 */
export async function opsLogIn(
  page: Page,
  operator: { email: string },
  secret?: string,
  used = new Set<string>(),
  password = OPERATOR_PASSWORD,
): Promise<string> {
  await page.goto("/ops/login");
  await page.getByLabel("E-mail").fill(operator.email);
  await page.getByLabel("Password").fill(password);
  if (secret) await page.getByLabel("Authenticator code").fill(await freshCode(secret, used));
  await page.getByRole("button", { name: "Log in" }).click();
  if (!secret) {
    await expect(page.getByRole("heading", { name: "Set up your authenticator" })).toBeVisible();
    secret = (await page.locator("code").first().textContent())!.trim();
    await page.getByLabel("Authenticator code").fill(await freshCode(secret, used));
    await page.getByRole("button", { name: "Confirm and log in" }).click();
  }
  await expect(page.getByRole("heading", { name: "Dashboard", level: 1 })).toBeVisible();
  return secret;
}

/** A member's identity submission in review, through the engine's API (the KYC page has its own suite). */
export async function submitKyc(email: string, password: string): Promise<void> {
  const api = `${ENGINE_URL}/api/mjkj-web/`;
  const login = await fetch(new URL(endpoints.token.path, api), {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ grant_type: "password", accountType: "email", email, password, deviceId: `e2e-kyc-${Date.now()}` }),
  });
  const token = ((await login.json()) as { data: { access_token: string } }).data.access_token;
  const png = () =>
    new Blob(
      [
        Buffer.concat([
          Buffer.from(
            "89504e470d0a1a0a0000000d49484452000000010000000108060000001f15c4890000000d49444154789c6360f8ffff3f0005fe02fea7d6a4c80000000049454e44ae426082",
            "hex",
          ),
          randomBytes(16),
        ]),
      ],
      { type: "image/png" },
    );
  const form = new FormData();
  form.set("type", "0");
  form.set("phone", "+4915112345678");
  for (const part of ["front", "back", "hand"]) form.set(part, png(), `${part}.png`);
  const res = await fetch(new URL(endpoints.kycSubmitImages.path, api), { method: "POST", headers: { [HEADERS.token]: `bearer ${token}` }, body: form });
  expect(res.status, await res.clone().text()).toBe(200);
}
