import { expect, test } from "@playwright/test";
import { createMember, deposit, logIn } from "./spot-support";
import { adminHeaders, ENGINE_URL, expectNoSeriousA11yViolations, text } from "./support";

/**
 * Issue 28 §3: the trading page a trader expects — the book grouped by a chosen step, a depth
 * chart beside it, the chart's axes, and "Available" leading somewhere (deposit, transfer, and a
 * one-step move of what the funding account holds). Each with and without JavaScript.
 */
const PAGE = "/exchange/full-screen/BTC_USDT";

/** Credits the member's funding account, where a deposit lands. */
async function fund(uid: string, amount: string) {
  const res = await fetch(`${ENGINE_URL}/admin/deposit`, {
    method: "POST",
    headers: { "content-type": "application/json", ...adminHeaders() },
    body: JSON.stringify({ uid, coin: "USDT", account: "funding", amount, reference: `e2e-tools-${uid}-${Date.now()}` }),
  });
  expect(res.status).toBe(200);
}

for (const javaScriptEnabled of [true, false]) {
  test.describe(`trading tools, JavaScript ${javaScriptEnabled ? "on" : "off"}`, () => {
    test.use({ javaScriptEnabled });

    test("the book groups by a chosen step; the depth chart and the chart's axes are drawn", async ({ page }) => {
      await page.goto(PAGE);
      const grouping = page.getByRole("navigation", { name: text("en", "exchange.book_grouping").replace("{{unit}}", "USDT") });
      // BTC/USDT has prices at 2 decimals: steps 0.01, 0.1, 1 and 10.
      await expect(grouping.getByRole("link")).toHaveText(["0.01", "0.1", "1", "10"]);
      await grouping.getByRole("link", { name: "10", exact: true }).click();
      await expect(page).toHaveURL(/group=1000/);
      await expect(grouping.getByRole("link", { name: "10", exact: true })).toHaveAttribute("aria-current", "true");
      // Every row's price is a whole ten (prices shown as 64,010.00).
      const prices = await page.getByTestId("bids").locator("tr td:first-child").allInnerTexts();
      expect(prices.length).toBeGreaterThan(0);
      for (const price of prices) expect(price).toMatch(/0\.00$/);

      // The candles carry a price axis (five prices) and a time axis.
      await expect(page.getByTestId("price-axis").locator("span")).toHaveCount(5);
      await expect(page.getByTestId("time-axis").locator("span").first()).toHaveText(/\d\d-\d\d \d\d:\d\d|\d{4}-\d\d-\d\d/);

      await page.getByRole("link", { name: text("en", "exchange.chart_view_depth") }).click();
      await expect(page).toHaveURL(/chart=depth/);
      const depth = page.getByTestId("depth-chart");
      await expect(depth.getByRole("img", { name: text("en", "exchange.depth_label").replace("{{symbol}}", "BTC/USDT") })).toBeVisible();
      await expect(depth.locator("path")).toHaveCount(2);
      await expect(depth.getByText(/^Bids total [\d,.]+ down to [\d,.]+; asks total [\d,.]+ up to [\d,.]+\.$/)).toBeAttached();
      // axe runs in the page: with JavaScript on only (the markup is the same without).
      if (javaScriptEnabled) await expectNoSeriousA11yViolations(page);
    });

    test("Available leads to deposit and transfer, and what the funding account holds moves to spot in one step", async ({ page }) => {
      const member = await createMember(`tools-${javaScriptEnabled ? "js" : "nojs"}`);
      await fund(member.uid, "250.5");
      await logIn(page, member.email, member.password, PAGE);
      const buy = page.getByRole("form", { name: "Buy BTC" });
      await expect(page.getByTestId("available-buy")).toHaveText("0 USDT");
      await expect(buy.getByRole("link", { name: "Deposit USDT" })).toHaveAttribute("href", "/account/wallet/deposit?coin=USDT");
      await expect(buy.getByRole("link", { name: "Transfer USDT between your accounts" })).toHaveAttribute(
        "href",
        "/account/wallet/transfer?coin=USDT&from=funding&to=spot",
      );
      const move = page.getByTestId("fund-buy");
      await expect(move).toHaveText("Move 250.5 USDT from funding");
      await move.click();
      await expect(page.getByText("Moved 250.5 USDT from the funding account to the spot account.")).toBeVisible();
      await expect(page.getByTestId("available-buy")).toHaveText("250.5 USDT");
      await expect(page.getByTestId("fund-buy")).toHaveCount(0);
      // The sell side spends BTC, which the funding account does not hold: links, no move.
      await expect(page.getByTestId("fund-sell")).toHaveCount(0);
      await expect(page.getByRole("form", { name: "Sell BTC" }).getByRole("link", { name: "Deposit BTC" })).toBeVisible();
    });
  });
}

for (const javaScriptEnabled of [true, false]) {
  test.describe(`on a phone, JavaScript ${javaScriptEnabled ? "on" : "off"}`, () => {
    test.use({ javaScriptEnabled, viewport: { width: 390, height: 844 } });
    test("one form with a buy/sell switch, the member's tabs right under it", async ({ page }) => {
      const member = await createMember(`tools-phone-${javaScriptEnabled ? "js" : "nojs"}`);
      await deposit(member.uid, "USDT", "1000");
      await logIn(page, member.email, member.password, PAGE);
      const buy = page.getByRole("form", { name: "Buy BTC" });
      const sell = page.getByRole("form", { name: "Sell BTC" });
      const sides = page.getByRole("navigation", { name: text("en", "exchange.form_side") });
      await expect(buy).toBeVisible();
      await expect(sell).toBeHidden();
      await sides.getByRole("link", { name: text("en", "exchange.side_sell") }).click();
      await expect(sell).toBeVisible();
      await expect(buy).toBeHidden();
      await sides.getByRole("link", { name: text("en", "exchange.side_buy") }).click();
      await expect(buy).toBeVisible();

      // A resting order, then the tabs: open orders, history, trades, funds, right under the form.
      await buy.getByLabel("Price").fill("30000");
      await buy.getByLabel("Amount").fill("0.01");
      await buy.getByRole("button", { name: "Buy BTC" }).click();
      await expect(page.getByText(text("en", "exchange.placed_open"))).toBeVisible();
      const panel = page.getByRole("navigation", { name: text("en", "exchange.member_panel") });
      const formBottom = (await buy.boundingBox())!;
      const panelTop = (await panel.boundingBox())!;
      expect(panelTop.y - (formBottom.y + formBottom.height)).toBeLessThan(200);
      await expect(page.getByTestId("open-orders").getByRole("row")).toHaveCount(2);
      await panel.getByRole("link", { name: text("en", "exchange.tab_funds") }).click();
      await expect(page).toHaveURL(/tab=funds/);
      await expect(page.getByTestId("my-funds").getByRole("row", { name: /USDT/ })).toContainText("700");
      await expect(page.getByTestId("my-funds").getByRole("row", { name: /USDT/ })).toContainText("300");
      await panel.getByRole("link", { name: text("en", "entrust.tabs.history") }).click();
      await expect(page).toHaveURL(/tab=history/);
      await expect(page.getByText(text("en", "entrust.empty.history"))).toBeVisible();
      await panel.getByRole("link", { name: text("en", "entrust.tabs.trades") }).click();
      await expect(page.getByText(text("en", "entrust.empty.trades"))).toBeVisible();
    });
  });
}

test("a move from funding posted twice moves once", async ({ page, request }) => {
  const member = await createMember("tools-retry");
  await fund(member.uid, "100");
  await deposit(member.uid, "USDT", "1");
  await logIn(page, member.email, member.password, PAGE);
  const key = await page.locator('form#fund-buy input[name="idempotencyKey"]').getAttribute("value");
  const cookies = (await page.context().cookies()).map((c) => `${c.name}=${c.value}`).join("; ");
  const post = () =>
    request.post(PAGE, {
      form: { intent: "fund", coin: "USDT", amount: "100", idempotencyKey: key! },
      headers: { cookie: cookies, origin: new URL(page.url()).origin },
      maxRedirects: 0,
    });
  // Both posts at once (a double submit): both find 100 USDT in funding, the engine moves it once under the key.
  const answers = await Promise.all([post(), post()]);
  expect(answers.map((a) => a.status())).toEqual([302, 302]);
  await page.reload();
  await expect(page.getByTestId("available-buy")).toHaveText("101 USDT");
});
