import { expect, test } from "@playwright/test";
import { expectNoSeriousA11yViolations, text } from "./support";
import { createMember, deposit, logIn } from "./spot-support";

/** Perpetual contracts (issue 30): the contract page with and without JavaScript, on the live simulated market. */
const PAGE = "/exchange/full-contract/BTC_USDT";

for (const javaScriptEnabled of [true, false]) {
  test.describe(`contracts, JavaScript ${javaScriptEnabled ? "on" : "off"}`, () => {
    test.use({ javaScriptEnabled });

    test("fund the contract account, set leverage, rest and cancel a limit, open at market and close", async ({ page }) => {
      const member = await createMember(javaScriptEnabled ? "contract-js" : "contract-nojs");
      await deposit(member.uid, "USDT", "1000", "funding");
      await logIn(page, member.email, member.password, PAGE);
      await expect(page.getByRole("heading", { level: 1 })).toContainText("BTCUSDT");
      await expect(page.getByTestId("mark-price")).toHaveText(/^\d{2},\d{3}\.\d$/);
      await expect(page.getByTestId("contract-available")).toHaveText("0 USDT");

      // The chart: of the last price, and by a link (no script needed) of the mark price, which the price loop samples every second.
      const chart = page.getByTestId("kline");
      await expect(chart).toHaveAttribute("aria-label", "BTCUSDT Last price k-line chart, 15m");
      await page.getByRole("link", { name: "Mark price", exact: true }).click();
      await expect(page).toHaveURL(/price=mark/);
      await expect(chart).toHaveAttribute("aria-label", "BTCUSDT Mark price k-line chart, 15m");
      await expect(chart.getByTestId("price-axis")).toBeAttached();

      // The way in: the transfer form, funding → contract, then back to the contract.
      await page.getByRole("link", { name: "Transfer USDT to the contract account" }).click();
      const transfer = page.getByRole("main");
      await transfer.getByLabel("Amount").fill("500");
      await transfer.getByRole("button", { name: "Transfer", exact: true }).click();
      await expect(page.getByText("Moved 500 USDT from the Funding account to the Contract account.")).toBeVisible();
      await page.goto(PAGE);
      await expect(page.getByTestId("contract-available")).toHaveText("500 USDT");

      // Leverage 10x; 0 is refused with the reason.
      const leverage = page.getByRole("form", { name: "Leverage" });
      await leverage.getByLabel(/^Leverage/).fill("0");
      await leverage.getByRole("button", { name: "Set leverage" }).click();
      await expect(leverage.getByText("Enter a whole leverage from 1 to 100.")).toBeVisible();
      await page
        .getByRole("form", { name: "Leverage" })
        .getByLabel(/^Leverage/)
        .fill("10");
      await page.getByRole("form", { name: "Leverage" }).getByRole("button", { name: "Set leverage" }).click();
      await expect(page.getByTestId("toast")).toContainText("Leverage set to 10x.");

      // A resting long: about 3 % under the mark (a limit may sit at most 5 % from it), a multiple of
      // 100 so that its cost below has at most 4 decimals.
      const mark = Number((await page.getByTestId("mark-price").innerText()).replace(/,/g, ""));
      const price = Math.floor((mark * 0.97) / 100) * 100;
      const shown = price.toLocaleString("en-US");

      // Bad input is explained and places nothing.
      const form = page.getByRole("form", { name: "Open a position" });
      await form.getByLabel("Price").fill(String(price));
      await form.getByLabel("Quantity").fill("1.5");
      await form.getByRole("button", { name: "Open long" }).click();
      await expect(form.getByText(/whole number|decimals/).first()).toBeVisible();
      await expect(page.getByText(text("en", "exchange.no_open_orders"))).toBeVisible();

      // Its cost is shown before placing (2 × 0.001 BTC × price ÷ 10, plus the 0.05 % taker fee), then it rests and is cancelled.
      await form.getByLabel("Quantity").fill("2");
      if (javaScriptEnabled) await expect(form.getByTestId("contract-cost")).toHaveText(`≈ ${((price / 100) * 201) / 10_000} USDT`);
      // And where it would leave the liquidation price: live with JavaScript, on the preview button without.
      if (!javaScriptEnabled) await form.getByRole("button", { name: "Preview liquidation price" }).click();
      await expect(form.getByTestId("preview-liq-long")).toHaveText(/^≈ \d{2},\d{3}(\.\d)? USDT$/);
      await expect(form.getByTestId("preview-liq-short")).toHaveText(/^≈ \d{2},\d{3}(\.\d)? USDT$/);
      await expect(form.getByLabel("Quantity")).toHaveValue("2");
      await form.getByRole("button", { name: "Open long" }).click();
      await expect(page.getByTestId("toast")).toContainText(text("en", "contract_page.placed_open"));
      const orders = page.getByTestId("contract-orders");
      await expect(orders.getByRole("row")).toHaveCount(2);
      await expect(orders).toContainText(shown);
      await orders.getByRole("button", { name: `Cancel order: Open long 2 at ${shown}` }).click();
      await expect(page.getByTestId("toast")).toContainText(text("en", "exchange.cancelled"));
      await expect(page.getByText(text("en", "exchange.no_open_orders"))).toBeVisible();

      // A market long of 3 contracts fills against the simulated makers: a position, then closed at market.
      await page.getByRole("navigation", { name: "Order panel" }).getByRole("link", { name: "Market" }).click();
      await expect(page).toHaveURL(/type=market/);
      const market = page.getByRole("form", { name: "Open a position" });
      await market.getByLabel("Quantity").fill("3");
      await market.getByRole("button", { name: "Open long" }).click();
      await expect(page.getByTestId("toast")).toContainText("Order filled: 3 contracts.");
      const positions = page.getByTestId("contract-positions");
      await expect(positions).toContainText("Long 10x");
      await expect(positions.getByTestId("liquidation-price")).toHaveText(/\d/);
      // The wallet's contract account counts the position's margin and shows its profit at the mark.
      await page.goto("/account/wallet/assets?t=4");
      const usdtRow = page.getByTestId("coins-contract").getByRole("row").filter({ hasText: "USDT" });
      await expect(usdtRow.getByRole("cell").nth(3)).toHaveText(/^[1-9]\d*\.\d+$|^0\.\d*[1-9]\d*$/);
      await page.goto(PAGE);
      await positions.getByRole("button", { name: "Close BTCUSDT at market" }).click();
      await expect(page.getByTestId("toast")).toContainText("Order filled: 3 contracts.");
      await expect(page.getByText(text("en", "contract_page.no_positions"))).toBeVisible();

      // The orders area keeps them: the cancelled limit and the two market orders in the history.
      await page.getByRole("link", { name: "All contract orders" }).click();
      await expect(page).toHaveURL(/\/account\/entrust\/future\/u$/);
      await page.getByRole("link", { name: "Order history" }).click();
      const history = page.getByTestId("contract-order-list");
      await expect(history.getByRole("row")).toHaveCount(4);
      await expect(history).toContainText("Cancelled");
      await expect(history).toContainText("Close long");
      // Beside them, the funding and the liquidations of the member's positions (none in a minute's trading).
      await page.getByRole("link", { name: "Liquidations", exact: true }).click();
      await expect(page).toHaveURL(/tab=liquidations/);
      await expect(page.getByText(text("en", "entrust.empty.liquidations"))).toBeVisible();
    });
  });
}

test("the contract page at 390 px and 1440 px: no serious axe violations, nothing wider than the screen", async ({ page }) => {
  const member = await createMember("contract-look");
  await deposit(member.uid, "USDT", "100", "funding");
  await logIn(page, member.email, member.password, PAGE);
  for (const width of [1440, 390]) {
    await page.setViewportSize({ width, height: 900 });
    await page.goto(PAGE);
    await expect(page.getByTestId("mark-price")).toHaveText(/\d/);
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(width);
    await expectNoSeriousA11yViolations(page);
    await page.screenshot({ path: test.info().outputPath(`contract-${width}.png`), fullPage: true });
    // The orders area's contract list too.
    await page.goto("/account/entrust/future/u?tab=history");
    await expect(page.getByRole("heading", { name: "USDT-margined contract orders", level: 1 })).toBeVisible();
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(width);
    await expectNoSeriousA11yViolations(page);
  }
  // A visitor sees the market and a way to log in.
  await page.context().clearCookies();
  await page.goto(PAGE);
  await expect(page.getByRole("link", { name: "Log in", exact: true }).last()).toBeVisible();
  await expect(page.getByText(text("en", "contract_page.login_to_trade"))).toBeVisible();
});
