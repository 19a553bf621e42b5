import { expect, test, type Page } from "@playwright/test";
import { createMember, deposit, logIn } from "./spot-support";
import { adminHeaders, ENGINE_URL, expectNoSeriousA11yViolations, text } from "./support";
import { reviewWithdrawal, TRON_ADDRESS, withdrawingMember } from "./wallet-support";

/** The wallet area (issue 12): the assets overview and transfers, with and without JavaScript. */

const ASSETS = "/account/wallet/assets";
const TRANSFER = "/account/wallet/transfer";

const coinRow = (page: Page, account: "funding" | "spot" | "contract", coin: string) =>
  page
    .getByTestId(`coins-${account}`)
    .getByRole("row")
    .filter({ has: page.getByText(coin, { exact: true }) });

for (const javaScriptEnabled of [true, false]) {
  test.describe(`the wallet, JavaScript ${javaScriptEnabled ? "on" : "off"}`, () => {
    test.use({ javaScriptEnabled });

    test("a member sees each account valued, moves funds to the contract account, and bad amounts change nothing", async ({ page }) => {
      const member = await createMember(javaScriptEnabled ? "wallet-js" : "wallet-nojs");
      await deposit(member.uid, "USDT", "1500");
      await logIn(page, member.email, member.password, ASSETS);
      await page.goto("/account/wallet");
      await expect(page).toHaveURL(new RegExp(`${ASSETS}$`));
      await expect(coinRow(page, "spot", "USDT")).toContainText("1,500.00000000");
      await expect(page.getByTestId("assets-total")).toContainText("1,500");

      // From the coin's row to the transfer form, spot → contract prefilled except the amount.
      await coinRow(page, "spot", "USDT").getByRole("link", { name: "Transfer USDT" }).click();
      await expect(page).toHaveURL(/\/account\/wallet\/transfer\?from=spot&coin=USDT&to=funding$/);
      const form = page.getByRole("main");
      await form.getByLabel("To").selectOption("contract");
      await form.getByLabel("Amount").fill("1,5");
      await form.getByRole("button", { name: "Transfer", exact: true }).click();
      await expect(form.getByText("Amount: write the decimal mark as “.”, such as 12.5.")).toBeVisible();
      await form.getByLabel("Amount").fill("2000");
      if (!javaScriptEnabled) await form.getByLabel("To").selectOption("contract");
      await form.getByRole("button", { name: "Transfer", exact: true }).click();
      await expect(form.getByText("Insufficient available balance")).toBeVisible();
      await form.getByLabel("To").selectOption("contract");
      await form.getByLabel("Amount").fill("250.5");
      await form.getByRole("button", { name: "Transfer", exact: true }).click();

      await expect(page).toHaveURL(new RegExp(`${ASSETS}\\?t=4$`));
      await expect(page.getByText("Moved 250.5 USDT from the Spot account to the Contract account.")).toBeVisible();
      await expect(coinRow(page, "contract", "USDT")).toContainText("250.50000000");
      await page
        .getByRole("navigation", { name: text("en", "wallet.menu_label") })
        .getByRole("link", { name: "Coin account" })
        .click();
      await expect(coinRow(page, "spot", "USDT")).toContainText("1,249.50000000");

      // Small balances hidden on request, kept as a preference.
      await page.getByRole("button", { name: "Hide small balances" }).click();
      await expect(page.getByRole("button", { name: "Hide small balances" })).toHaveAttribute("aria-pressed", "true");
      await expect(coinRow(page, "spot", "DOGE")).toHaveCount(0);
      await expect(coinRow(page, "spot", "USDT")).toHaveCount(1);
      await page.reload();
      await expect(coinRow(page, "spot", "DOGE")).toHaveCount(0);
    });
  });
}

for (const javaScriptEnabled of [true, false]) {
  test(`a member follows their withdrawals, cancels one in review and reads why another was rejected, JavaScript ${javaScriptEnabled ? "on" : "off"}`, async ({
    browser,
  }) => {
    const member = await createMember(javaScriptEnabled ? "wd-js" : "wd-nojs");
    const credited = await fetch(`${ENGINE_URL}/admin/deposit`, {
      method: "POST",
      headers: { "content-type": "application/json", ...adminHeaders() },
      body: JSON.stringify({ uid: member.uid, coin: "USDT", account: "funding", amount: "500", reference: `e2e-wd-${member.uid}` }),
    });
    expect(credited.status).toBe(200);
    const api = await withdrawingMember(member.email, member.password);
    const rejected = await api.withdraw("20");
    await api.withdraw("30");
    await reviewWithdrawal(rejected, "reject", "The destination is a sanctioned service.");

    const page = await (await browser.newContext({ javaScriptEnabled })).newPage();
    await logIn(page, member.email, member.password, "/account/wallet/history-withdrawal");
    const rows = page.getByTestId("withdrawals").getByRole("row");
    await expect(rows).toHaveCount(3);
    await expect(rows.nth(1)).toContainText("In review");
    await expect(rows.nth(1)).toContainText(TRON_ADDRESS);
    await expect(rows.nth(2)).toContainText("Rejected");
    await expect(rows.nth(2)).toContainText("The destination is a sanctioned service.");
    await expect(rows.nth(2).getByRole("button")).toHaveCount(0);

    await rows.nth(1).getByRole("button", { name: "Cancel the withdrawal of 30 USDT" }).click();
    await expect(page.getByText("Cancel success")).toBeVisible();
    await expect(rows.nth(1)).toContainText("Cancelled");
    await expect(page.getByRole("button", { name: /Cancel the withdrawal/ })).toHaveCount(0);

    // Filtered by state: the rejected one alone; with a coin it was not in: nothing.
    await page.getByLabel("Status").selectOption("rejected");
    await page.getByRole("button", { name: "Search" }).click();
    await expect(page).toHaveURL(/state=rejected/);
    await expect(rows).toHaveCount(2);
    await expect(rows.nth(1)).toContainText("The destination is a sanctioned service.");
    await page.getByLabel("Coin", { exact: true }).selectOption("BTC");
    await page.getByRole("button", { name: "Search" }).click();
    await expect(page.getByText("Nothing matches this filter.")).toBeVisible();

    await page.goto(ASSETS);
    await expect(coinRow(page, "funding", "USDT")).toContainText("500.00000000");
  });
}

for (const javaScriptEnabled of [true, false]) {
  test(`the bills explain every change of a balance, filtered, JavaScript ${javaScriptEnabled ? "on" : "off"}`, async ({ browser }) => {
    const member = await createMember(javaScriptEnabled ? "bills-js" : "bills-nojs");
    await deposit(member.uid, "USDT", "300");
    const page = await (await browser.newContext({ javaScriptEnabled })).newPage();
    await logIn(page, member.email, member.password, `${TRANSFER}?from=spot&to=funding&coin=USDT`);
    await page.getByLabel("Amount").fill("120");
    await page.getByRole("button", { name: "Transfer", exact: true }).click();
    await expect(page).toHaveURL(new RegExp(`${ASSETS}$`));

    await page.goto("/account/wallet/bills");
    const lines = page.getByTestId("bills").getByRole("row");
    await expect(lines).toHaveCount(4); // a header, the deposit, and the transfer's two sides
    await expect(lines.filter({ hasText: "Transfer out" })).toContainText("−120 USDT");
    await expect(lines.filter({ hasText: "Transfer in" })).toContainText("+120 USDT");
    await expect(lines.filter({ hasText: "Deposit" })).toContainText("+300 USDT");

    await page.getByLabel("Type").selectOption("deposit");
    await page.getByRole("button", { name: "Search" }).click();
    await expect(page).toHaveURL(/type=deposit/);
    await expect(lines).toHaveCount(2);
    await page.goto("/account/wallet/bills?from=2026-02-30");
    await expect(page.getByText("Check this filter.")).toBeVisible();
    await expect(page.getByTestId("bills")).toHaveCount(0);
  });
}

for (const javaScriptEnabled of [true, false]) {
  test(`a member deposits from the chain: the address of the network asked for, then the deposit confirms and is credited, JavaScript ${javaScriptEnabled ? "on" : "off"}`, async ({
    browser,
  }) => {
    const member = await createMember(javaScriptEnabled ? "dep-js" : "dep-nojs");
    const page = await (await browser.newContext({ javaScriptEnabled })).newPage();
    await logIn(page, member.email, member.password, "/account/wallet/deposit");
    await page.getByLabel("Coin", { exact: true }).selectOption("USDT");
    await page.getByLabel("Network", { exact: true }).selectOption("TRC20");
    await page.getByRole("button", { name: "Show address" }).click();
    await expect(page).toHaveURL(/coin=USDT&network=TRC20/);
    await expect(page.getByRole("img", { name: "QR code of your USDT deposit address" })).toBeVisible();
    const address = (await page.getByTestId("deposit-address").textContent())!.trim();
    expect(address).toMatch(/^T[1-9A-HJ-NP-Za-km-z]{33}$/);

    // Someone outside pays 75 USDT into it (the operator's simulated sender).
    const sent = await fetch(`${ENGINE_URL}/admin/chain/send`, {
      method: "POST",
      headers: { "content-type": "application/json", ...adminHeaders() },
      body: JSON.stringify({ address, coin: "USDT", amount: "75", network: "TRC20" }),
    });
    expect(sent.status).toBe(200);
    await expect(async () => {
      await page.reload();
      await expect(page.getByTestId("deposits").getByRole("row").nth(1)).toContainText("Credited", { timeout: 1_000 });
    }).toPass({ timeout: 30_000 });
    await page.goto(ASSETS);
    await expect(coinRow(page, "funding", "USDT")).toContainText("75.00000000");
  });
}

test("a transfer posted twice with one key moves the funds once", async ({ page }) => {
  const member = await createMember("wallet-retry");
  await deposit(member.uid, "USDT", "100");
  await logIn(page, member.email, member.password, `${TRANSFER}?from=spot&to=funding&coin=USDT`);
  const form = page.locator("form#transfer");
  await form.getByLabel("Amount").fill("40");
  const body = new URLSearchParams(
    await form.evaluate((f: HTMLFormElement) => [...new FormData(f).entries()].map(([k, v]) => [k, String(v)]) as [string, string][]),
  );
  for (let i = 0; i < 2; i++) {
    const answer = await page.request.post(TRANSFER, { form: Object.fromEntries(body), maxRedirects: 0 });
    expect(answer.status()).toBe(302);
  }
  await page.goto(ASSETS);
  await expect(coinRow(page, "spot", "USDT")).toContainText("60.00000000");
  await expect(coinRow(page, "funding", "USDT")).toContainText("40.00000000");
});

test("the wallet pages have no serious axe violations and are members only", async ({ page }) => {
  await page.goto(ASSETS);
  await expect(page).toHaveURL(/\/user\/login\?redirectTo=%2Faccount%2Fwallet%2Fassets$/);
  const member = await createMember("wallet-axe");
  await logIn(page, member.email, member.password, ASSETS);
  await expectNoSeriousA11yViolations(page);
  await page.goto(`${ASSETS}?t=4`);
  await expectNoSeriousA11yViolations(page);
  await page.goto(TRANSFER);
  await expectNoSeriousA11yViolations(page);
  await page.goto("/account/wallet/history-withdrawal");
  await expectNoSeriousA11yViolations(page);
  await page.goto("/account/wallet/bills");
  await expectNoSeriousA11yViolations(page);
  await page.goto("/account/wallet/deposit");
  await expectNoSeriousA11yViolations(page);
});
