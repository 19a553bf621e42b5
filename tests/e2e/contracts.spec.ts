import { expect, test } from "@playwright/test";
import { expectNoSeriousA11yViolations, text } from "./support";
import { createMember, deposit, logIn, moveMarket } from "./spot-support";

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
      await page.getByRole("link", { name: "Order history", exact: true }).click();
      const history = page.getByTestId("contract-order-list");
      await expect(history.getByRole("row")).toHaveCount(4);
      await expect(history).toContainText("Cancelled");
      await expect(history).toContainText("Close long");
      // Beside them, the funding and the liquidations of the member's positions (none in a minute's trading).
      await page.getByRole("link", { name: "Liquidations", exact: true }).click();
      await expect(page).toHaveURL(/tab=liquidations/);
      await expect(page.getByText(text("en", "entrust.empty.liquidations"))).toBeVisible();
    });

    test("a stop order waits and is cancelled; a position's take profit and stop loss are set, refused on the wrong side, and listed", async ({ page }) => {
      const member = await createMember(javaScriptEnabled ? "contract-stop-js" : "contract-stop-nojs");
      await deposit(member.uid, "USDT", "500", "funding");
      await logIn(page, member.email, member.password, "/account/wallet/transfer?coin=USDT&from=funding&to=contract");
      await page.getByRole("main").getByLabel("Amount").fill("500");
      await page.getByRole("main").getByRole("button", { name: "Transfer", exact: true }).click();
      await expect(page.getByText("Moved 500 USDT from the Funding account to the Contract account.")).toBeVisible();
      await page.goto(`${PAGE}?type=stop`);
      const mark = Number((await page.getByTestId("mark-price").innerText()).replace(/,/g, ""));
      const form = page.getByRole("form", { name: "Open a position" });
      // No trigger price: explained, nothing placed.
      await form.getByLabel("Quantity").fill("1");
      await form.getByRole("button", { name: "Open long" }).click();
      await expect(form.getByText(text("en", "contract_page.validation.trigger_required"))).toBeVisible();
      // A breakout long: a market buy once the mark reaches 20 % above it. It waits, holding nothing.
      const trigger = Math.round(mark * 1.2);
      await form.getByLabel("Trigger price").fill(String(trigger));
      await form.getByLabel("Quantity").fill("1");
      await form.getByRole("button", { name: "Open long" }).click();
      // With JavaScript the live refresh the change pushes may replace the toast as it shows: the list below is what counts.
      if (!javaScriptEnabled) await expect(page.getByTestId("toast")).toContainText(text("en", "contract_page.placed_waiting"));
      await expect(page.getByTestId("contract-stops").getByRole("row")).toHaveCount(2);
      await expect(page.getByTestId("contract-available")).toHaveText("500 USDT");
      const stops = page.getByTestId("contract-stops");
      await expect(stops.getByRole("row")).toHaveCount(2);
      await expect(stops).toContainText(`${trigger.toLocaleString("en-US")} (Mark price)`);
      await stops.getByRole("button", { name: /^Cancel Stop market on BTCUSDT/ }).click();
      await expect(page.getByTestId("toast")).toContainText(text("en", "exchange.cancelled"));
      await expect(page.getByText(text("en", "contract_page.no_stops"))).toBeVisible();

      // Cross margin (decision 049) before trading: the free balance backs the position, which has no margin form.
      await page.goto(`${PAGE}?type=market`);
      const modeForm = page.getByRole("form", { name: "Margin mode" });
      await modeForm.getByLabel("Margin mode").selectOption("cross");
      await modeForm.getByRole("button", { name: "Set mode" }).click();
      if (!javaScriptEnabled) await expect(page.getByTestId("toast")).toContainText(text("en", "contract_page.mode_set_cross"));
      await expect(page.getByRole("form", { name: "Margin mode" }).getByLabel("Margin mode")).toHaveValue("cross");

      // A market long, then its take profit and stop loss: on the wrong side refused with the engine's reason, then set.
      await page.getByRole("form", { name: "Open a position" }).getByLabel("Quantity").fill("1");
      await page.getByRole("form", { name: "Open a position" }).getByRole("button", { name: "Open long" }).click();
      await expect(page.getByTestId("toast")).toContainText("Order filled: 1 contracts.");
      const positions = page.getByTestId("contract-positions");
      await expect(positions).toContainText("Cross");
      await expect(positions.getByRole("form", { name: "Margin of the BTCUSDT position" })).toHaveCount(0);
      await positions.locator("summary").click();
      const tpsl = page.getByRole("form", { name: "Take profit and stop loss of BTCUSDT" });
      await tpsl.getByLabel("Take-profit price for BTCUSDT").fill(String(Math.round(mark * 0.5)));
      await tpsl.getByRole("button", { name: "Set", exact: true }).click();
      const refused = page.getByRole("form", { name: "Take profit and stop loss of BTCUSDT" });
      await expect(refused).toContainText("a take profit lies on the profit side");
      await refused.getByLabel("Take-profit price for BTCUSDT").fill(String(Math.round(mark * 1.5)));
      await refused.getByLabel("Stop-loss price for BTCUSDT").fill(String(Math.round(mark * 0.5)));
      await refused.getByRole("button", { name: "Set", exact: true }).click();
      if (!javaScriptEnabled) await expect(page.getByTestId("toast")).toContainText(text("en", "contract_page.tpsl_set"));
      await expect(positions.getByTestId("position-tpsl")).toHaveText(
        `${Math.round(mark * 1.5).toLocaleString("en-US")} / ${Math.round(mark * 0.5).toLocaleString("en-US")}`,
      );
      await expect(stops).toContainText("Whole position");

      // The orders area lists the waiting take profit and stop loss, and the stop order cancelled by the member.
      await page.goto("/account/entrust/future/u?tab=stops");
      await expect(page.getByTestId("contract-stops")).toContainText("TP/SL");
      await page.getByRole("link", { name: "Stop order history" }).click();
      const ended = page.getByTestId("contract-stop-history");
      await expect(ended).toContainText("Cancelled (by you)");
      // Closing the position takes its take profit and stop loss with it.
      await page.goto(PAGE);
      await positions.getByRole("button", { name: "Close BTCUSDT at market" }).click();
      await expect(page.getByTestId("toast")).toContainText("Order filled: 1 contracts.");
      await expect(page.getByText(text("en", "contract_page.no_stops"))).toBeVisible();
    });
  });
}

/**
 * The mark moves (the simulator's test hook moves ETH's spot market, the ETH perpetual's index):
 * a 10x long closes with a profit, then a 100x long is liquidated, and its history and a
 * notification say so. ETH is left where it was found. One after the other (the workers share
 * the exchange: two tests moving ETH at once would undo each other's move).
 */
test.describe("the mark moves", () => {
  test.describe.configure({ mode: "serial" });
  for (const javaScriptEnabled of [true, false]) {
    test(`the mark moves: a profit closed, a liquidation told, JavaScript ${javaScriptEnabled ? "on" : "off"}`, async ({ browser }) => {
      const context = await browser.newContext({ javaScriptEnabled });
      const page = await context.newPage();
      const ETH = "/exchange/full-contract/ETH_USDT";
      const member = await createMember(javaScriptEnabled ? "contract-mark-js" : "contract-mark-nojs");
      await deposit(member.uid, "USDT", "2000", "funding");
      await logIn(page, member.email, member.password, "/account/wallet/transfer?coin=USDT&from=funding&to=contract");
      await page.getByRole("main").getByLabel("Amount").fill("2000");
      await page.getByRole("main").getByRole("button", { name: "Transfer", exact: true }).click();
      await expect(page.getByText("Moved 2,000 USDT from the Funding account to the Contract account.")).toBeVisible();
      await page.goto(`${ETH}?type=market`);
      const start = Number((await page.getByTestId("mark-price").innerText()).replace(/,/g, "")).toFixed(2);
      const setLeverage = async (leverage: string) => {
        const form = page.getByRole("form", { name: "Leverage" });
        await form.getByLabel(/^Leverage/).fill(leverage);
        await form.getByRole("button", { name: "Set leverage" }).click();
        await expect(page.getByTestId("toast")).toContainText(`Leverage set to ${leverage}x.`);
      };
      const openLong = async (qty: string) => {
        const form = page.getByRole("form", { name: "Open a position" });
        await form.getByLabel("Quantity").fill(qty);
        await form.getByRole("button", { name: "Open long" }).click();
        await expect(page.getByTestId("toast")).toContainText(`Order filled: ${qty} contracts.`);
      };
      const positions = page.getByTestId("contract-positions");
      try {
        // A 10x long; ETH rises 3 %: the mark follows, the position gains, and closes with a profit.
        await setLeverage("10");
        await openLong("10");
        await moveMarket("ETH/USDT", (Number(start) * 1.03).toFixed(2));
        await expect(async () => {
          await page.goto(`${ETH}?type=market`);
          await expect(positions.getByTestId("unrealised-pnl")).toHaveText(/^(?:[1-9][\d,]*(?:\.\d+)?|0\.\d*[1-9]\d*) USDT/, { timeout: 1_000 });
          // The mark follows the index at once, the contract's own book a moment later: a close fills on the book, so wait for
          // its trades to have risen too (a close against the old quotes realised exactly 0 once on a loaded CI).
          const last = Number((await page.getByTestId("last-price").innerText({ timeout: 1_000 })).replace(/,/g, ""));
          expect(last).toBeGreaterThan(Number(start) * 1.01);
        }).toPass({ timeout: 30_000 });
        await positions.getByRole("button", { name: "Close ETHUSDT at market" }).click();
        await expect(page.getByTestId("toast")).toContainText("Order filled: 10 contracts.");
        // The close's realised profit (the whole row in the message: its average price and fee say why, should it not be a profit).
        await expect(async () => {
          await page.goto("/account/entrust/future/u?tab=history&symbol=ETH_USDT");
          const closed = page.getByTestId("contract-order-list").getByRole("row").filter({ hasText: "Close long" });
          const realised = await closed.getByRole("cell").nth(9).innerText({ timeout: 1_000 });
          expect(realised, `the close: ${await closed.innerText()}`).toMatch(/^[1-9][\d,]*(\.\d+)?$|^0\.\d*[1-9]/);
        }).toPass({ timeout: 10_000 });

        // A 100x long; ETH falls 3 %: the mark passes its liquidation price, and the engine takes it over.
        await page.goto(`${ETH}?type=market`);
        await setLeverage("100");
        await openLong("10");
        const now = (await page.getByTestId("mark-price").innerText()).replace(/,/g, "");
        await moveMarket("ETH/USDT", (Number(now) * 0.97).toFixed(2));
        await expect(async () => {
          await page.goto(`${ETH}?type=market`);
          await expect(page.getByText(text("en", "contract_page.no_positions"))).toBeVisible({ timeout: 1_000 });
        }).toPass({ timeout: 20_000 });
        await page.goto("/account/entrust/future/u?tab=liquidations");
        const liquidated = page.getByTestId("contract-liquidation-list").getByRole("row").filter({ hasText: "ETHUSDT" });
        await expect(liquidated).toContainText("Liquidated");
        await expect(liquidated).toContainText("Long");
        await page.goto("/account/center/notifications");
        await expect(page.getByRole("main")).toContainText("Your long position of 10 contracts in ETH/USDT was liquidated at");
      } finally {
        await moveMarket("ETH/USDT", start);
        await context.close();
      }
    });
  }
});

test("the contract page at 390 px and 1440 px: no serious axe violations, nothing wider than the screen", async ({ page }) => {
  // Six pages through axe at two widths: seconds each on two busy cores, more than the default minute on a slow day.
  test.setTimeout(180_000);
  const member = await createMember("contract-look");
  await deposit(member.uid, "USDT", "200", "funding");
  await logIn(page, member.email, member.password, "/account/wallet/transfer?coin=USDT&from=funding&to=contract");
  await page.getByRole("main").getByLabel("Amount").fill("100");
  await page.getByRole("main").getByRole("button", { name: "Transfer", exact: true }).click();
  await expect(page.getByText("Moved 100 USDT from the Funding account to the Contract account.")).toBeVisible();
  // A position with its take profit and stop loss, and a waiting stop order: the tables the page and the orders area show.
  await page.goto(`${PAGE}?type=market`);
  const mark = Number((await page.getByTestId("mark-price").innerText()).replace(/,/g, ""));
  await page.getByRole("form", { name: "Open a position" }).getByLabel("Quantity").fill("1");
  await page.getByRole("form", { name: "Open a position" }).getByRole("button", { name: "Open long" }).click();
  await expect(page.getByTestId("toast")).toContainText("Order filled: 1 contracts.");
  await page.getByTestId("contract-positions").locator("summary").click();
  const tpsl = page.getByRole("form", { name: "Take profit and stop loss of BTCUSDT" });
  await tpsl.getByLabel("Take-profit price for BTCUSDT").fill(String(Math.round(mark * 1.5)));
  await tpsl.getByRole("button", { name: "Set", exact: true }).click();
  await expect(page.getByTestId("position-tpsl")).toHaveText(`${Math.round(mark * 1.5).toLocaleString("en-US")} / --`);
  await page.goto(`${PAGE}?type=stop`);
  await page
    .getByRole("form", { name: "Open a position" })
    .getByLabel("Trigger price")
    .fill(String(Math.round(mark * 0.8)));
  await page.getByRole("form", { name: "Open a position" }).getByLabel("Quantity").fill("1");
  await page.getByRole("form", { name: "Open a position" }).getByRole("button", { name: "Open long" }).click();
  await expect(page.getByTestId("contract-stops")).toContainText("Stop market");
  for (const width of [1440, 390]) {
    await page.setViewportSize({ width, height: 900 });
    await page.goto(`${PAGE}?type=stop`);
    await expect(page.getByTestId("mark-price")).toHaveText(/\d/);
    await page.getByTestId("contract-positions").locator("summary").click();
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(width);
    await expectNoSeriousA11yViolations(page);
    await page.screenshot({ path: test.info().outputPath(`contract-${width}.png`), fullPage: true });
    // The orders area's contract lists too.
    for (const tab of ["history", "stops"]) {
      await page.goto(`/account/entrust/future/u?tab=${tab}`);
      await expect(page.getByRole("heading", { name: "USDT-margined contract orders", level: 1 })).toBeVisible();
      expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(width);
      await expectNoSeriousA11yViolations(page);
    }
    await page.screenshot({ path: test.info().outputPath(`contract-stops-${width}.png`), fullPage: true });
  }
  // A visitor sees the market and a way to log in.
  await page.context().clearCookies();
  await page.goto(PAGE);
  await expect(page.getByRole("link", { name: "Log in", exact: true }).last()).toBeVisible();
  await expect(page.getByText(text("en", "contract_page.login_to_trade"))).toBeVisible();
});
