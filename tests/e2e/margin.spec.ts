import { expect, test, type Page } from "@playwright/test";
import { createMember, deposit, logIn, moveMarket } from "./spot-support";
import { createOperator, opsLogIn } from "./ops-support";
import { adminHeaders, ENGINE_URL, expectNoSeriousA11yViolations } from "./support";

/** Margin (issue 31): a member moves funds into the cross account, borrows, repays, and sets an isolated account's leverage, with and without JavaScript. */

const MARGIN = "/account/wallet/margin";

const coinRow = (page: Page, coin: string) =>
  page
    .getByTestId("margin-coins")
    .getByRole("listitem")
    .filter({ has: page.getByRole("heading", { name: coin, exact: true }) });

async function submitMove(page: Page, operation: string, amount: string) {
  const form = page.getByRole("form", { name: "Transfer, borrow or repay" });
  await form.getByLabel("Operation").selectOption({ label: operation });
  await form.getByLabel("Coin").selectOption("USDT");
  await form.getByLabel("Amount").fill(amount);
  await form.getByRole("button", { name: "Confirm" }).click();
}

for (const javaScriptEnabled of [true, false]) {
  test.describe(`margin, JavaScript ${javaScriptEnabled ? "on" : "off"}`, () => {
    test.use({ javaScriptEnabled });

    test("a member moves funds in, borrows, is refused more than owed, repays, and levers an isolated account", async ({ page }) => {
      const member = await createMember(javaScriptEnabled ? "margin-js" : "margin-nojs");
      await deposit(member.uid, "USDT", "2000", "funding");
      await logIn(page, member.email, member.password, MARGIN);
      await expect(page.getByRole("heading", { name: "Margin", level: 1 })).toBeVisible();
      await expect(page.getByRole("navigation", { name: "Margin accounts" }).getByRole("link", { name: "Cross" })).toHaveAttribute("aria-current", "page");

      await submitMove(page, "Transfer in from funding", "1000");
      await expect(coinRow(page, "USDT")).toContainText("1,000.00000000");
      await submitMove(page, "Borrow", "5000");
      await expect(page.getByText("You can borrow at most 2000 USDT now.")).toBeVisible();
      await submitMove(page, "Borrow", "500");
      await expect(coinRow(page, "USDT")).toContainText("500.00500000");
      await expect(page.getByTestId("margin-level")).toHaveText("2.99");
      await submitMove(page, "Repay", "600");
      await expect(page.getByText("You owe 500.005 USDT: repay at most that.")).toBeVisible();
      await submitMove(page, "Repay", "500.005");
      await expect(page.getByTestId("margin-debts")).toHaveText("0.00 USDT");

      await page.getByRole("navigation", { name: "Margin accounts" }).getByRole("link", { name: "BTC/USDT" }).click();
      await expect(page).toHaveURL(new RegExp(`${MARGIN}\\?account=BTC_USDT$`));
      const leverage = page.getByRole("form", { name: "Leverage of this account" });
      await leverage.getByLabel("Leverage").selectOption("10");
      await leverage.getByRole("button", { name: "Set leverage" }).click();
      await expect(page.getByRole("definition").filter({ hasText: "10×" })).toBeVisible();
      // axe runs in the page: with JavaScript only.
      if (javaScriptEnabled) await expectNoSeriousA11yViolations(page);
    });
  });
}

for (const javaScriptEnabled of [true, false]) {
  test.describe(`trading on margin, JavaScript ${javaScriptEnabled ? "on" : "off"}`, () => {
    test.use({ javaScriptEnabled });

    test("a member switches the trading page to cross margin, places an order from it, and finds it with the account's records in the orders area", async ({
      page,
    }) => {
      const member = await createMember(javaScriptEnabled ? "margin-trade-js" : "margin-trade-nojs");
      await deposit(member.uid, "USDT", "2000", "funding");
      await logIn(page, member.email, member.password, MARGIN);
      await submitMove(page, "Transfer in from funding", "1000");
      await expect(coinRow(page, "USDT")).toContainText("1,000.00000000");

      await page.goto("/exchange/full-screen/BTC_USDT");
      const deals = page.getByRole("navigation", { name: "Trade from" });
      await expect(deals.getByRole("link", { name: "Spot" })).toHaveAttribute("aria-current", "true");
      await deals.getByRole("link", { name: "Cross margin" }).click();
      await expect(page).toHaveURL(/deal=all/);
      await expect(deals.getByRole("link", { name: "Cross margin" })).toHaveAttribute("aria-current", "true");
      await expect(page.getByTestId("available-buy")).toHaveText("1,000 USDT");
      await expect(page.getByTestId("deal-facts")).toContainText("3×");
      const buy = page.getByRole("form", { name: "Buy BTC" });
      await buy.getByLabel("Price").fill("30000");
      await buy.getByLabel("Amount").fill("0.01");
      await buy.getByRole("button", { name: "Buy BTC" }).click();
      await expect(page.getByText("Order placed: it is in the book.")).toBeVisible();
      await expect(page.getByTestId("available-buy")).toHaveText("700 USDT");

      await page.goto("/account/entrust/margin-all");
      await expect(page.getByRole("heading", { name: "Cross margin orders", level: 1 })).toBeVisible();
      const orders = page.getByRole("table", { name: "Open orders" });
      await expect(orders.getByRole("row")).toHaveCount(2);
      await expect(orders).toContainText("30,000");
      await page.getByRole("navigation", { name: "Order lists" }).getByRole("link", { name: "Borrowing records" }).click();
      await expect(page.getByRole("table", { name: "Borrowing records" })).toContainText("Transferred in");
      // The spot page does not list it.
      await page.goto("/account/entrust/spot");
      await expect(page.getByText("You have no open orders.")).toBeVisible();
      await page.goto("/account/entrust/margin-all");
      await orders.getByRole("button", { name: /^Cancel buy order BTC\/USDT/i }).click();
      await expect(page.getByText("Order cancelled.")).toBeVisible();
      await expect(page.getByText("You have no open orders.")).toBeVisible();
      if (javaScriptEnabled) await expectNoSeriousA11yViolations(page);
    });
  });
}

test("the trading page on margin and the margin orders page at 390 px and 1440 px", async ({ page }) => {
  // Pages through axe at two widths: more than the default minute on a slow day.
  test.setTimeout(180_000);
  const member = await createMember("margin-trade-shots");
  await deposit(member.uid, "USDT", "2000", "funding");
  await logIn(page, member.email, member.password, MARGIN);
  await submitMove(page, "Transfer in from funding", "1000");
  await expect(coinRow(page, "USDT")).toContainText("1,000.00000000");
  await submitMove(page, "Borrow", "500");
  await expect(page.getByTestId("margin-level")).toHaveText("2.99");
  for (const width of [390, 1440]) {
    await page.setViewportSize({ width, height: 900 });
    for (const [path, name] of [
      ["/exchange/full-screen/BTC_USDT?deal=all", "trade"],
      ["/account/entrust/margin-all?tab=records", "orders"],
    ] as const) {
      await page.goto(path);
      const overflow = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
      expect(overflow).toBeLessThanOrEqual(0);
      await expectNoSeriousA11yViolations(page);
      await page.screenshot({ path: test.info().outputPath(`margin-${name}-${width}.png`), fullPage: width === 390 });
    }
  }
});

test("the margin page at 390 px and 1440 px", async ({ page }) => {
  // Pages through axe at two widths: more than the default minute on a slow day.
  test.setTimeout(180_000);
  const member = await createMember("margin-shots");
  await deposit(member.uid, "USDT", "2000", "funding");
  await logIn(page, member.email, member.password, MARGIN);
  await submitMove(page, "Transfer in from funding", "1000");
  await expect(coinRow(page, "USDT")).toContainText("1,000.00000000");
  for (const width of [390, 1440]) {
    await page.setViewportSize({ width, height: 900 });
    await page.goto(MARGIN);
    const overflow = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
    expect(overflow).toBeLessThanOrEqual(0);
    await expectNoSeriousA11yViolations(page);
    await page.screenshot({ path: test.info().outputPath(`margin-${width}.png`), fullPage: true });
  }
});

test("an operator changes a lending pool's rate with the CLI, and members see it on the margin page", async ({ page }) => {
  const { execFileSync } = await import("node:child_process");
  const admin = (...args: string[]) =>
    execFileSync(process.execPath, ["--import", "tsx", "engine/admin-cli.ts", "margin", ...args], {
      env: { ...process.env, ENGINE_URL, ADMIN_TOKEN: adminHeaders()["x-admin-token"] },
      encoding: "utf8",
    });
  expect(admin("pools")).toMatch(/^SOL {2}0\.000008\/h \(0\.07008 a year\)/m);
  const member = await createMember("margin-cli");
  await logIn(page, member.email, member.password, MARGIN);
  try {
    expect(admin("pool", "SOL", "--rate", "0.00001")).toMatch(/^SOL {2}0\.00001\/h \(0\.0876 a year\)/);
    await page.reload();
    await expect(coinRow(page, "SOL")).toContainText("8.76 %");
  } finally {
    expect(admin("pool", "SOL", "--rate", "0.000008")).toMatch(/^SOL {2}0\.000008\/h/);
  }
});

for (const javaScriptEnabled of [true, false]) {
  test(`a markets operator changes a lending pool's limit in the console; a rate above 1 % an hour is refused (JavaScript ${javaScriptEnabled ? "on" : "off"})`, async ({
    browser,
  }) => {
    // Each run a pool of its own (the runs share the exchange, side by side; no other test changes these),
    // and a limit other than the one it has (a retry finds the last run's).
    const coin = javaScriptEnabled ? "XRP" : "ETH";
    const pools = (await (await fetch(`${ENGINE_URL}/admin/margin/pools`, { headers: adminHeaders() })).json()) as {
      data: Array<{ coin: string; hourlyRate: string; limit: string }>;
    };
    const now = pools.data.find((p) => p.coin === coin)!;
    const [first, second] = javaScriptEnabled ? ["4000000", "4500000"] : ["2500", "3000"];
    const limit = now.limit === first ? second : first;
    const pool = { coin, rate: now.hourlyRate, limit, shown: Number(limit).toLocaleString("en") };
    const operator = await createOperator("markets", `e2e-margin-${javaScriptEnabled ? "js" : "nojs"}`);
    const context = await browser.newContext({ javaScriptEnabled, viewport: { width: 1440, height: 900 } });
    const page = await context.newPage();
    await opsLogIn(page, operator);
    await page.getByRole("link", { name: "Margin" }).click();
    await expect(page.getByRole("heading", { name: "Margin lending pools", level: 1 })).toBeVisible();
    const row = page
      .getByTestId("ops-margin-pools")
      .getByRole("row")
      .filter({ has: page.getByText(pool.coin, { exact: true }) });
    await expect(row).toHaveCount(1);
    if (javaScriptEnabled) await expectNoSeriousA11yViolations(page);
    await row.getByText("Change rules…").click();
    await row.getByLabel("Hourly rate (fraction)").fill("0.5");
    await row.getByRole("button", { name: `Save the ${pool.coin} pool` }).click();
    await expect(row.getByText("The hourly rate is at most 0.01 (1 % an hour).")).toBeVisible();
    await row.getByLabel("Hourly rate (fraction)").fill(pool.rate);
    await row.getByLabel("Lending limit").fill(pool.limit);
    await row.getByRole("button", { name: `Save the ${pool.coin} pool` }).click();
    await expect(page.getByText(`The ${pool.coin} pool's rules are saved.`)).toBeVisible();
    await expect(row).toContainText(`of ${pool.shown}`);
    for (const width of [390, 1440]) {
      await page.setViewportSize({ width, height: 900 });
      expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(width);
      await page.screenshot({ path: test.info().outputPath(`ops-margin-${width}.png`), fullPage: true });
    }
  });
}

/**
 * A markets operator puts TRX/USDT on margin in the console (a market no other test moves or
 * watches); a member levers an isolated TRX account 10x and buys TRX with borrowed USDT; TRX
 * falls 8 % (the simulator's test hook): the margin loop finds the level under 1.10, the engine
 * sells the TRX and repays the debt, and the member is told. TRX is put back where it was found.
 */
test("an isolated margin account is liquidated when its market falls, and its member is told (JavaScript off)", async ({ browser }) => {
  test.setTimeout(120_000);
  const operator = await createOperator("markets", "e2e-margin-pair");
  const ops = await browser.newContext({ javaScriptEnabled: false });
  const opsPage = await ops.newPage();
  await opsLogIn(opsPage, operator);
  await opsPage.goto("/ops/margin");
  const pairs = opsPage.getByTestId("ops-margin-pairs");
  if ((await pairs.getByRole("row").filter({ hasText: "TRX/USDT" }).count()) === 0) {
    const add = opsPage.getByRole("form", { name: "Put a market on margin" });
    await add.getByLabel("Market").selectOption("TRX/USDT");
    await add.getByLabel("Highest leverage").selectOption("10");
    await add.getByRole("button", { name: "Put a market on margin" }).click();
    await expect(opsPage.getByText("TRX/USDT is on margin up to 10×.")).toBeVisible();
  }
  await expect(pairs.getByRole("row").filter({ hasText: "TRX/USDT" })).toContainText("10×");
  await ops.close();
  // The CLI speaks the same operator call: a leverage outside 2 to 10 is refused, the pair kept.
  const { execFileSync, spawnSync } = await import("node:child_process");
  const cli = ["--import", "tsx", "engine/admin-cli.ts", "margin", "pair", "TRX/USDT"];
  const env = { ...process.env, ENGINE_URL, ADMIN_TOKEN: adminHeaders()["x-admin-token"] };
  expect(spawnSync(process.execPath, [...cli, "11"], { env, encoding: "utf8" }).status).not.toBe(0);
  expect(execFileSync(process.execPath, [...cli, "10"], { env, encoding: "utf8" })).toMatch(/^TRX\/USDT {2}up to 10x isolated$/m);

  const context = await browser.newContext({ javaScriptEnabled: false });
  const page = await context.newPage();
  const member = await createMember("margin-liquidated");
  await deposit(member.uid, "USDT", "200", "funding");
  const account = `${MARGIN}?account=TRX_USDT`;
  // The web tier learns of the new pair within seconds (its cache of the pairs reloads on a miss).
  await expect(async () => {
    await logIn(page, member.email, member.password, account);
    await expect(page.getByRole("form", { name: "Leverage of this account" })).toBeVisible({ timeout: 1_000 });
  }).toPass({ timeout: 20_000 });
  const leverage = page.getByRole("form", { name: "Leverage of this account" });
  await leverage.getByLabel("Leverage").selectOption("10");
  await leverage.getByRole("button", { name: "Set leverage" }).click();
  await expect(page.getByRole("definition").filter({ hasText: "10×" })).toBeVisible();
  await submitMove(page, "Transfer in from funding", "100");
  await expect(coinRow(page, "USDT")).toContainText("100.00000000");
  await submitMove(page, "Borrow", "800");
  await expect(page.getByTestId("margin-debts")).toHaveText(/^800\.\d+ USDT$/);

  await expect(async () => {
    await page.goto("/exchange/full-screen/TRX_USDT?deal=fixed&type=market");
    await expect(page.getByTestId("available-buy")).toHaveText("900 USDT", { timeout: 1_000 });
  }).toPass({ timeout: 20_000 });
  const before = (await page.getByTestId("last-price").first().innerText()).replace(/,/g, "").trim();
  const buy = page.getByRole("form", { name: "Buy TRX" });
  await buy.getByLabel("Total to spend").fill("880");
  await buy.getByRole("button", { name: "Buy TRX" }).click();
  await expect(page.getByText(/^Order filled: [\d,]+ TRX\.$/)).toBeVisible();
  try {
    await expect(async () => {
      await moveMarket("TRX/USDT", (Number(before) * 0.92).toFixed(5));
      await page.goto("/account/center/notifications");
      await expect(page.getByRole("main")).toContainText("Your TRX/USDT isolated margin account reached the liquidation line", { timeout: 3_000 });
    }).toPass({ timeout: 60_000 });
    await page.goto(account);
    await expect(page.getByTestId("margin-debts")).toHaveText("0.00 USDT");
    await page.goto("/account/entrust/margin-fixed?tab=history");
    await expect(page.getByRole("main")).toContainText("TRX/USDT");
  } finally {
    await moveMarket("TRX/USDT", before);
    await context.close();
  }
});
