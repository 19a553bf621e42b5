import { expect, test, type Page } from "@playwright/test";
import { createMember, logIn } from "./spot-support";
import { adminHeaders, ENGINE_URL, expectNoSeriousA11yViolations, sendCodeAndRead } from "./support";
import { reviewWithdrawal, TRON_ADDRESS, WITHDRAWING_TRADE_PASSWORD, withdrawingMember } from "./wallet-support";

/**
 * The wallet as a new member meets it (issue 12, "Done means"): a deposit from the simulated
 * chain confirms and is credited, funds go to spot and trade, a withdrawal asked for on the web
 * form is approved by an operator, sent and completed, and the bills explain every change; with
 * and without JavaScript.
 */

const ASSETS = "/account/wallet/assets";
const WITHDRAW = "/account/wallet/withdrawal";
const TRADE_PASSWORD = "135790";

/** The id of the member's withdrawal in review, from the operator's queue (by the member's uid: parallel tests withdraw the same amount to the same address). */
async function withdrawalIdOf(page: Page, uid: string): Promise<string> {
  await page.goto("/account/wallet/history-withdrawal");
  await expect(page.getByTestId("withdrawals").getByRole("row").nth(1)).toContainText("In review");
  const res = await fetch(`${ENGINE_URL}/admin/withdrawals?state=review`, { headers: adminHeaders() });
  const queue = ((await res.json()) as { data: Array<{ id: string; uid: string }> }).data;
  const mine = queue.filter((w) => w.uid === uid);
  expect(mine).toHaveLength(1);
  return mine[0]!.id;
}

const fundingUsdt = (page: Page) =>
  page
    .getByTestId("coins-funding")
    .getByRole("row")
    .filter({ has: page.getByText("USDT", { exact: true }) });

for (const javaScriptEnabled of [true, false]) {
  test(`a new member deposits, trades and withdraws; the operator approves and it completes, JavaScript ${javaScriptEnabled ? "on" : "off"}`, async ({
    browser,
  }) => {
    test.setTimeout(120_000);
    const member = await createMember(javaScriptEnabled ? "journey-js" : "journey-nojs");
    const page = await (await browser.newContext({ javaScriptEnabled })).newPage();
    await logIn(page, member.email, member.password, "/account/wallet/deposit?coin=USDT&network=TRC20");

    // 1. A deposit of 500 USDT from outside, credited once confirmed.
    const address = (await page.getByTestId("deposit-address").textContent())!.trim();
    const sent = await fetch(`${ENGINE_URL}/admin/chain/send`, {
      method: "POST",
      headers: { "content-type": "application/json", ...adminHeaders() },
      body: JSON.stringify({ address, coin: "USDT", amount: "500", network: "TRC20" }),
    });
    expect(sent.status).toBe(200);
    await expect(async () => {
      await page.goto("/account/wallet/history-deposit?coin=USDT");
      await expect(page.getByTestId("deposits").getByRole("row").nth(1)).toContainText("Credited", { timeout: 1_000 });
    }).toPass({ timeout: 30_000 });
    await expect(page.getByTestId("deposits").getByRole("row").nth(1)).toContainText(address);

    // 2. 200 USDT to spot, and a market buy for 100 USDT against the simulated sellers.
    await page.goto("/account/wallet/transfer?from=funding&to=spot&coin=USDT");
    await page.getByLabel("Amount").fill("200");
    await page.getByRole("button", { name: "Transfer", exact: true }).click();
    await expect(page).toHaveURL(new RegExp(`${ASSETS}$`));
    await page.goto("/exchange/full-screen/BTC_USDT?type=market");
    const buy = page.getByRole("form", { name: "Buy BTC" });
    await buy.getByLabel("Total to spend").fill("100");
    await buy.getByRole("button", { name: "Buy BTC" }).click();
    await expect(page.getByText(/^Order filled: 0\.00\d+ BTC\.$/)).toBeVisible();

    // 3. The withdrawal form asks for a transaction password first.
    await page.goto(WITHDRAW);
    await expect(page.getByTestId("withdraw-needs-trade-password")).toBeVisible();
    await page.getByRole("link", { name: "Set transaction password" }).click();
    const code = (await sendCodeAndRead(page, member.email)).code; // first: the answer clears the passwords
    await page.getByLabel("Transaction password", { exact: true }).fill(TRADE_PASSWORD);
    await page.getByLabel("Confirm transaction password").fill(TRADE_PASSWORD);
    await page.getByLabel("Verification code").fill(code);
    await page.getByRole("button", { name: "Save" }).click();
    await expect(page.getByText("Transaction password saved.")).toBeVisible();

    // 4. USDT over TRC20: the network's fee and minimum shown; bad input is refused and changes nothing.
    await page.goto(`${WITHDRAW}?coin=USDT&network=TRC20`);
    await expect(page.getByText("Available: 300 USDT")).toBeVisible();
    const form = page.locator("form#withdraw-USDT-TRC20");
    await form.getByLabel("USDT address on TRC20").fill("TNPeeaaFB7K9cmo4uQpcU32zGK8G1NYqeM");
    await form.getByLabel("Amount to receive").fill("400");
    await form.getByLabel("Transaction password").fill(TRADE_PASSWORD);
    await form.getByLabel("Verification code").fill("000000");
    await form.getByRole("button", { name: "Withdraw" }).click();
    await expect(page.getByText("Cannot be greater than the available balance (the network fee is taken on top).")).toBeVisible();
    await form.getByLabel("Amount to receive").fill("120.5");
    if (javaScriptEnabled) {
      await expect(page.getByTestId("withdraw-total")).toHaveText("121.5 USDT");
    }
    await form.getByLabel("Transaction password").fill(TRADE_PASSWORD);
    await form.getByLabel("Verification code").fill("000000");
    await form.getByRole("button", { name: "Withdraw" }).click();
    // The checksum of a TRON address is the engine's to check: its message comes back on the form.
    await expect(page.getByRole("alert")).toContainText(/address/i);
    await expect(form.getByLabel("Amount to receive")).toHaveValue("120.5");

    // 5. The right address, the code sent by the form's button: in review.
    await form.getByLabel("USDT address on TRC20").fill(TRON_ADDRESS);
    const withdrawCode = (await sendCodeAndRead(page, member.email)).code; // the answer keeps what was typed, except passwords and codes
    await expect(form.getByLabel("USDT address on TRC20")).toHaveValue(TRON_ADDRESS);
    await form.getByLabel("Transaction password").fill(TRADE_PASSWORD);
    await form.getByLabel("Verification code").fill(withdrawCode);
    await form.getByRole("button", { name: "Withdraw" }).click();
    await expect(page).toHaveURL(/\/account\/wallet\/history-withdrawal$/);
    await expect(page.getByText("Withdrawal of 120.5 USDT on TRC20 requested: it is now in review.")).toBeVisible();
    await page.goto(ASSETS);
    await expect(fundingUsdt(page)).toContainText("178.50000000"); // 300 − 120.5 − 1 held

    // 6. The operator approves; the sender sends it; the chain confirms it.
    await reviewWithdrawal(await withdrawalIdOf(page, member.uid), "approve");
    await expect(async () => {
      await page.goto("/account/wallet/history-withdrawal");
      await expect(page.getByTestId("withdrawals").getByRole("row").nth(1)).toContainText("Completed", { timeout: 1_000 });
    }).toPass({ timeout: 45_000 });

    // 7. The bills explain it: the deposit, the transfers, the trade, the withdrawal and its fee.
    await page.goto("/account/wallet/bills?coin=USDT&account=1");
    const lines = page.getByTestId("bills").getByRole("row");
    await expect(lines.filter({ hasText: "Withdrawal fee" })).toContainText("−1 USDT");
    await expect(lines.filter({ hasText: /Withdrawal(?! fee)/ })).toContainText("−120.5 USDT");
    await expect(lines.filter({ hasText: "Deposit" })).toContainText("+500 USDT");
    const csv = page.getByRole("link", { name: "Download CSV" });
    await expect(csv).toHaveAttribute("href", /\/account\/wallet\/bills\/export\?coin=USDT&account=1$/);
    const download = await page.request.get((await csv.getAttribute("href"))!);
    expect(download.headers()["content-type"]).toContain("text/csv");
    expect(await download.text()).toContain("120.5");
  });
}

test("a withdrawal posted twice with one key is asked for once", async ({ page }) => {
  const member = await createMember("wd-retry");
  const credited = await fetch(`${ENGINE_URL}/admin/deposit`, {
    method: "POST",
    headers: { "content-type": "application/json", ...adminHeaders() },
    body: JSON.stringify({ uid: member.uid, coin: "USDT", account: "funding", amount: "100", reference: `e2e-wd-retry-${member.uid}` }),
  });
  expect(credited.status).toBe(200);
  await logIn(page, member.email, member.password, "/account/center/trade-pwd");
  const passwordCode = (await sendCodeAndRead(page, member.email)).code;
  await page.getByLabel("Transaction password", { exact: true }).fill(TRADE_PASSWORD);
  await page.getByLabel("Confirm transaction password").fill(TRADE_PASSWORD);
  await page.getByLabel("Verification code").fill(passwordCode);
  await page.getByRole("button", { name: "Save" }).click();
  await expect(page.getByText("Transaction password saved.")).toBeVisible();

  await page.goto(`${WITHDRAW}?coin=USDT&network=TRC20`);
  const form = page.locator("form#withdraw-USDT-TRC20");
  await form.getByLabel("USDT address on TRC20").fill(TRON_ADDRESS);
  await form.getByLabel("Amount to receive").fill("40");
  const code = (await sendCodeAndRead(page, member.email)).code;
  await form.getByLabel("Transaction password").fill(TRADE_PASSWORD);
  await form.getByLabel("Verification code").fill(code);
  const body = Object.fromEntries(
    await form.evaluate((f: HTMLFormElement) => [...new FormData(f).entries()].map(([k, v]) => [k, String(v)]) as [string, string][]),
  );
  for (let i = 0; i < 2; i++) {
    const answer = await page.request.post(`${WITHDRAW}?coin=USDT&network=TRC20`, { form: { ...body, intent: "withdraw" }, maxRedirects: 0 });
    expect(answer.status()).toBe(302);
  }
  await page.goto("/account/wallet/history-withdrawal");
  await expect(page.getByTestId("withdrawals").getByRole("row")).toHaveCount(2);
  await page.goto(ASSETS);
  await expect(fundingUsdt(page)).toContainText("59.00000000");
});

test("under whitelist mode a saved address fills the withdrawal form and waits 24 hours, JavaScript off", async ({ browser }) => {
  const member = await createMember("wd-whitelist");
  const credited = await fetch(`${ENGINE_URL}/admin/deposit`, {
    method: "POST",
    headers: { "content-type": "application/json", ...adminHeaders() },
    body: JSON.stringify({ uid: member.uid, coin: "USDT", account: "funding", amount: "100", reference: `e2e-wd-wl-${member.uid}` }),
  });
  expect(credited.status).toBe(200);
  await withdrawingMember(member.email, member.password); // sets the transaction password
  const page = await (await browser.newContext({ javaScriptEnabled: false })).newPage();
  await logIn(page, member.email, member.password, "/account/wallet/address");
  const add = page.getByRole("region", { name: "Add an address" });
  await add.getByLabel("Coin and network").selectOption("USDT:TRC20");
  await add.getByLabel("Address").fill(TRON_ADDRESS);
  await add.getByLabel("Label").fill("Cold wallet");
  await add.getByRole("button", { name: "Save address" }).click();
  await expect(page.getByText("Saved “Cold wallet” to your address book.")).toBeVisible();
  const whitelist = page.getByRole("region", { name: "Whitelist mode" });
  const whitelistCode = (await sendCodeAndRead(page, member.email)).code;
  await whitelist.getByLabel("Verification code").fill(whitelistCode);
  await whitelist.getByRole("button", { name: "Turn on whitelist mode" }).click();
  await expect(page.getByText("Whitelist mode is on.")).toBeVisible();

  await page.goto(`${WITHDRAW}?coin=USDT&network=TRC20`);
  await expect(page.getByTestId("withdraw-whitelist")).toContainText("Whitelist mode is on");
  await page.getByLabel("Saved address").selectOption({ label: "Cold wallet · TNPeea…YqeL" });
  await page.getByRole("button", { name: "Choose" }).click();
  const form = page.locator("form#withdraw-USDT-TRC20");
  await expect(form.getByLabel("USDT address on TRC20")).toHaveValue(TRON_ADDRESS);
  await expect(form.getByText(/“Cold wallet” was saved less than 24 hours ago/)).toBeVisible();
  await form.getByLabel("Amount to receive").fill("20");
  const code = (await sendCodeAndRead(page, member.email)).code;
  await form.getByLabel("Transaction password").fill(WITHDRAWING_TRADE_PASSWORD);
  await form.getByLabel("Verification code").fill(code);
  await form.getByRole("button", { name: "Withdraw" }).click();
  await expect(page.getByRole("alert")).toContainText("this address was saved less than 24 hours ago");
  await page.goto("/account/wallet/history-withdrawal");
  await expect(page.getByText("No withdrawals yet.")).toBeVisible();
});

test("the withdrawal and deposit history pages have no serious axe violations; the account centre's paths lead to them", async ({ page }) => {
  const member = await createMember("wd-axe");
  await logIn(page, member.email, member.password, WITHDRAW);
  await expectNoSeriousA11yViolations(page);
  await page.goto("/account/wallet/history-deposit");
  await expectNoSeriousA11yViolations(page);
  for (const [from, to] of [
    ["/account/center/withdrawal?coin=BTC", `${WITHDRAW}?coin=BTC`],
    ["/account/center/deposit", "/account/wallet/deposit"],
    ["/account/center/history-deposit", "/account/wallet/history-deposit"],
  ]) {
    await page.goto(from!);
    await expect(page).toHaveURL(new RegExp(`${to!.replace(/[?/]/g, "\\$&")}$`));
  }
});
