import { expect, type Page } from "@playwright/test";
import { adminHeaders, DEFAULT_EXCHANGE, ENGINE_URL, latestCode, uniqueEmail, type E2eExchange } from "./support";

/** A new member registered straight through the engine's API (the register page has its own suite). */
export async function createMember(tag: string, exchange: E2eExchange = DEFAULT_EXCHANGE): Promise<{ email: string; password: string; uid: string }> {
  const api = `${exchange.engineUrl}/api/mjkj-web`;
  const email = uniqueEmail(tag);
  const password = "trade123";
  const sent = await fetch(`${api}/coin/open/send/email?email=${encodeURIComponent(email)}&type=register`);
  expect(sent.ok).toBe(true);
  const { code } = await latestCode(email, 0, exchange);
  const res = await fetch(`${api}/coin/open/register`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ accountType: "email", email, code, password }),
  });
  const body = (await res.json()) as { code: number; data: { uid: string } };
  expect(body.code).toBe(200);
  return { email, password, uid: body.data.uid };
}

/** Credits a member's spot (or funding) account through the operator call (the admin token of the e2e data folder). */
export async function deposit(
  uid: string,
  coin: string,
  amount: string,
  account: "spot" | "funding" = "spot",
  exchange: E2eExchange = DEFAULT_EXCHANGE,
): Promise<void> {
  const res = await fetch(`${exchange.engineUrl}/admin/deposit`, {
    method: "POST",
    headers: { "content-type": "application/json", ...adminHeaders(exchange) },
    body: JSON.stringify({ uid, coin, account, amount, reference: `e2e-${uid}-${coin}-${Date.now()}` }),
  });
  expect(res.status).toBe(200);
}

/** Moves a simulated spot market's price at once (the operators' test hook): contracts that follow it move their mark. Answers where it went. */
export async function moveMarket(symbol: string, price: string): Promise<string> {
  const res = await fetch(`${ENGINE_URL}/admin/sim/price`, {
    method: "POST",
    headers: { "content-type": "application/json", ...adminHeaders() },
    body: JSON.stringify({ symbol, price }),
  });
  expect(res.status).toBe(200);
  return ((await res.json()) as { data: { reference: string } }).data.reference;
}

export async function logIn(page: Page, email: string, password: string, redirectTo = "/account/center/info"): Promise<void> {
  await page.goto(`/user/login?redirectTo=${encodeURIComponent(redirectTo)}`);
  await page.getByLabel("E-mail").fill(email);
  await page.getByLabel("Password", { exact: true }).fill(password);
  await page.getByRole("button", { name: "Log in", exact: true }).click();
  await expect(page).toHaveURL(new RegExp(`${redirectTo.replace(/[?/]/g, "\\$&")}$`));
}
