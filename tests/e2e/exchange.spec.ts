import { expect, test, type Page } from "@playwright/test";
import { createMember, deposit, logIn } from "./spot-support";
import { ENGINE_URL, expectNoSeriousA11yViolations, hydrationErrors, text } from "./support";

const PAGE = "/exchange/full-screen/BTC_USDT";

/** The public book as the engine has it (100 levels a side), to find an order far from the touch. */
async function publicBids(): Promise<Array<[string, string]>> {
  const res = await fetch(`${ENGINE_URL}/api/mjkj-web/coin/open/getSpotGoods?symbol=BTC_USDT&levels=100`);
  return ((await res.json()) as { data: { depth: { bids: Array<[string, string]> } } }).data.depth.bids;
}

function available(page: Page, side: "buy" | "sell") {
  return page.getByTestId(`available-${side}`);
}

test("a visitor sees a live market: ticker, book, trades, chart and a way to log in", async ({ page }) => {
  await page.goto("/exchange/index");
  await expect(page).toHaveURL(/\/exchange\/full-screen\/BTC_USDT$/);
  await expect(page.getByRole("heading", { level: 1 })).toContainText("BTC");
  await expect(page.getByTestId("asks").getByRole("row").first()).toBeVisible();
  await expect(page.getByTestId("bids").getByRole("row").first()).toBeVisible();
  await expect(page.getByTestId("trades").getByRole("row").first()).toBeVisible();
  await expect(page.getByRole("img", { name: /BTC\/USDT k-line chart, 15m/ }).first()).toBeVisible();
  await expect(page.getByRole("main").getByRole("link", { name: "Log in", exact: true })).toHaveAttribute(
    "href",
    /redirectTo=%2Fexchange%2Ffull-screen%2FBTC_USDT/,
  );
  // Live: new trades arrive without a reload (the bots trade about every second).
  const first = await page.getByTestId("trades").getByRole("row").first().innerText();
  await expect.poll(async () => page.getByTestId("trades").getByRole("row").first().innerText(), { timeout: 15_000 }).not.toBe(first);
  await expectNoSeriousA11yViolations(page);
  // Periods are links: the 1D chart renders its own candles.
  await page.getByRole("link", { name: "1D" }).click();
  await expect(page).toHaveURL(/period=1d/);
  await expect(page.getByRole("img", { name: /k-line chart, 1D/ }).first()).toBeVisible();
  // Another market from the switcher.
  await page.locator("summary", { hasText: "BTC" }).click();
  await page.getByRole("link", { name: /^ETH\/USDT/ }).click();
  await expect(page).toHaveURL(/\/exchange\/full-screen\/ETH_USDT/);
  await expect(page.getByRole("heading", { level: 1 })).toContainText("ETH");
});

/** The market's decimals as the engine has them: price (`coin_coin_scale`) and amount (`base_coin_scale`). */
async function scalesOf(symbol: string): Promise<{ price: number; amount: number }> {
  const res = await fetch(`${ENGINE_URL}/api/mjkj-web/coin/open/getSpotGoods?symbol=${symbol}`);
  const { symbol: rules } = ((await res.json()) as { data: { symbol: { coin_coin_scale: number; base_coin_scale: number } } }).data;
  return { price: rules.coin_coin_scale, amount: rules.base_coin_scale };
}

/** A grouped number with exactly `decimals` decimals in a language's marks; `grouped` asks for at least one separator. */
function numberPattern(marks: { separator: string; decimal: string }, decimals: number, grouped = false): RegExp {
  const escape = (mark: string) => mark.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
  return new RegExp(`^\\d{1,3}(?:${escape(marks.separator)}\\d{3})${grouped ? "+" : "*"}${escape(marks.decimal)}\\d{${decimals}}$`);
}

for (const [lang, marks] of [
  ["en", { separator: ",", decimal: "." }],
  ["tr", { separator: ".", decimal: "," }],
] as const) {
  test(`the book and the trades keep the market's decimals, written in ${lang} (${marks.separator} thousands, ${marks.decimal} decimals)`, async ({
    page,
    context,
    baseURL,
  }) => {
    const hydration = hydrationErrors(page);
    await context.addCookies([{ name: "lang", value: Buffer.from(JSON.stringify(lang)).toString("base64"), url: baseURL! }]);
    const scales = await scalesOf("BTC_USDT");
    await page.goto(PAGE);
    await expect(page.getByTestId("asks").getByRole("row").first()).toBeVisible();
    await expect(page.getByTestId("trades").getByRole("row").first()).toBeVisible();
    // Every row read in one go (a live push cannot land halfway): price, amount and total cells.
    const column = (testId: string, index: number) =>
      page
        .getByTestId(testId)
        .getByRole("row")
        .evaluateAll((rows, i) => rows.map((r) => r.querySelectorAll("td")[i]!.firstChild!.textContent!.trim()), index);
    const price = numberPattern(marks, scales.price, true); // BTC is above 1,000: always grouped
    const amount = numberPattern(marks, scales.amount);
    const total = numberPattern(marks, scales.price);
    for (const side of ["asks", "bids"]) {
      const prices = await column(side, 0);
      expect(prices.length, side).toBeGreaterThan(0);
      for (const shown of prices) expect(shown, `${side} price`).toMatch(price);
      for (const shown of await column(side, 1)) expect(shown, `${side} amount`).toMatch(amount);
      for (const shown of await column(side, 2)) expect(shown, `${side} total`).toMatch(total);
    }
    expect((await page.getByTestId("book-last").innerText()).trim()).toMatch(price);
    for (const shown of await column("trades", 0)) expect(shown, "trade price").toMatch(price);
    for (const shown of await column("trades", 1)) expect(shown, "trade amount").toMatch(amount);
    expect(hydration, "server and browser render the same numbers").toEqual([]);
  });
}

test("an unknown market is a real 404 page with a title and a way back to the markets", async ({ page }) => {
  const res = await page.goto("/exchange/full-screen/NOPE_USDT");
  expect(res?.status()).toBe(404);
  await expect(page).toHaveTitle("Page not found | Meridian Exchange");
  await expect(page.getByRole("heading", { level: 1, name: "Page not found" })).toBeVisible();
  await expectNoSeriousA11yViolations(page);
  await page.getByRole("link", { name: "See all markets" }).click();
  await expect(page).toHaveURL(/\/market\/main$/);
});

test("pages say what they are: titles, descriptions, robots.txt and a web manifest", async ({ page, request }) => {
  await page.goto(PAGE);
  await expect(page).toHaveTitle(/^[\d,.]+ \| BTC\/USDT \| Meridian Exchange$/);
  for (const path of ["/home/index", "/user/login", PAGE, "/exchange/full-screen/NOPE_USDT"]) {
    await page.goto(path);
    await expect(page.locator('meta[name="description"]'), path).toHaveAttribute("content", /\w{10,}/);
  }
  const robots = await request.get("/robots.txt");
  expect(robots.status()).toBe(200);
  expect(await robots.text()).toContain("Disallow: /account/");
  const manifest = await request.get("/site.webmanifest");
  expect(manifest.status()).toBe(200);
  expect(await manifest.json()).toMatchObject({ start_url: "/home/index", icons: expect.any(Array) });
});

test("fees are shown before the trade: the rates and estimate on the form, every market on the fees page", async ({ page }) => {
  const member = await createMember("fees");
  await deposit(member.uid, "USDT", "20000");
  await logIn(page, member.email, member.password, PAGE);
  await expect(page.getByTestId("fee-rates-buy")).toHaveText("0.1% / 0.2%");
  await expect(page.getByTestId("fee-rates-sell")).toHaveText("0.1% / 0.2%");
  const buy = page.getByRole("form", { name: "Buy BTC" });
  await buy.getByLabel("Price").fill("20000");
  await buy.getByLabel("Amount").fill("0.5");
  // A buy pays in the coin it receives: at most 0.2 % of 0.5 BTC.
  await expect(page.getByTestId("fee-estimate-buy")).toHaveText("≈ 0.001 BTC");
  const sell = page.getByRole("form", { name: "Sell BTC" });
  await sell.getByLabel("Price").fill("20000");
  await sell.getByLabel("Amount").fill("0.5");
  // A sell pays in the quote coin: at most 0.2 % of 10,000 USDT.
  await expect(page.getByTestId("fee-estimate-sell")).toHaveText("≈ 20 USDT");

  await page.goto("/rate/index");
  const fees = page.getByRole("region", { name: "Trading fees" });
  const btc = fees.getByRole("row", { name: /BTC\/USDT/ });
  await expect(btc).toContainText("0.1%");
  await expect(btc).toContainText("0.2%");
  await expect(fees.getByRole("row")).toHaveCount(7); // a header and the six demo markets
  await btc.getByRole("link", { name: "BTC/USDT" }).click();
  await expect(page).toHaveURL(/\/exchange\/full-screen\/BTC_USDT$/);
});

for (const javaScriptEnabled of [true, false]) {
  test.describe(`trading spot, JavaScript ${javaScriptEnabled ? "on" : "off"}`, () => {
    test.use({ javaScriptEnabled });

    test("limit order into the book, cancel it; market order fills against the liquidity", async ({ page }) => {
      const member = await createMember(javaScriptEnabled ? "spot-js" : "spot-nojs");
      await deposit(member.uid, "USDT", "10000");
      await logIn(page, member.email, member.password, PAGE);
      const buy = page.getByRole("form", { name: "Buy BTC" });
      await expect(available(page, "buy")).toHaveText("10,000 USDT");
      await expect(page.getByText(text("en", "exchange.no_open_orders"))).toBeVisible();

      // Bad input is explained and places nothing.
      await buy.getByLabel("Price").fill("");
      await buy.getByRole("button", { name: "Buy BTC" }).click();
      await expect(buy.getByText("Please enter price")).toBeVisible();
      await expect(buy.getByText("Please enter quantity")).toBeVisible();
      // What is not a plain number is refused as typed, never cleaned into another number
      // (decision 039): with JavaScript the message shows as the member types.
      await buy.getByLabel("Price").fill("3a0000.129");
      const unreadable = buy.getByText("Price: enter digits with at most one decimal mark, such as 12.5.");
      if (javaScriptEnabled) await expect(unreadable).toBeVisible();
      await buy.getByLabel("Amount").fill("1");
      await buy.getByRole("button", { name: "Buy BTC" }).click();
      await expect(unreadable).toBeVisible();
      await expect(buy.getByLabel("Price")).toHaveValue("3a0000.129");
      await buy.getByLabel("Price").fill("30000.12");
      await buy.getByLabel("Amount").fill("1");
      await buy.getByRole("button", { name: "Buy BTC" }).click();
      await expect(buy.getByText("Insufficient available balance")).toBeVisible();

      // A limit buy far below the market rests in the book (a price of its own per run).
      const price = javaScriptEnabled ? "30000" : "31000";
      await buy.getByLabel("Price").fill(price);
      await buy.getByLabel("Amount").fill("0.01");
      await buy.getByRole("button", { name: "Buy BTC" }).click();
      // On the toast region, so a failure prints what the member was told instead.
      await expect(page.getByTestId("toast")).toContainText(text("en", "exchange.placed_open"));
      const orders = page.getByTestId("open-orders");
      await expect(orders.getByRole("row")).toHaveCount(2);
      await expect(orders).toContainText(javaScriptEnabled ? "30,000" : "31,000");
      await expect(available(page, "buy")).toHaveText(javaScriptEnabled ? "9,700 USDT" : "9,690 USDT");
      expect(await publicBids()).toContainEqual([price, "0.01"]);

      // Cancel it: gone from the open orders and from the book, the funds free again.
      await orders.getByRole("button", { name: /Cancel Buy order/ }).click();
      await expect(page.getByText(text("en", "exchange.cancelled"))).toBeVisible();
      await expect(page.getByText(text("en", "exchange.no_open_orders"))).toBeVisible();
      await expect(available(page, "buy")).toHaveText("10,000 USDT");
      expect(await publicBids()).not.toContainEqual([price, "0.01"]);

      // A market buy for 100 USDT fills against the simulated sellers.
      await page.getByRole("link", { name: "Market", exact: true }).click();
      await expect(page).toHaveURL(/type=market/);
      await buy.getByLabel("Total to spend").fill("100");
      await buy.getByRole("button", { name: "Buy BTC" }).click();
      // Money rarely buys whole lots exactly: the order spends all it can, is filled, and what
      // buys less than one lot stays with the member.
      await expect(page.getByText(/^Order filled: 0\.00\d+ BTC\.$/)).toBeVisible();
      await expect(available(page, "buy")).toHaveText(/^9,9\d\d(\.\d+)? USDT$/);
      await expect(available(page, "sell")).toHaveText(/^0\.00\d+ BTC$/);

      // A stop-loss sell waits off the book for its trigger: listed, its coins held, then cancelled.
      await page.getByRole("link", { name: "Stop-profit/stop-loss", exact: true }).click();
      await expect(page).toHaveURL(/type=stop/);
      const sell = page.getByRole("form", { name: "Sell BTC" });
      const heldBefore = await available(page, "sell").innerText();
      await sell.getByLabel("Amount").fill("0.00001");
      await sell.getByRole("button", { name: "Sell BTC" }).click();
      await expect(sell.getByText(text("en", "spot.validation.stop_required"))).toBeVisible();
      await sell.getByLabel("Stop-loss", { exact: true }).check();
      await sell.getByLabel("Stop-loss price").fill("1000");
      await sell.getByLabel("Order price").fill("999");
      await sell.getByLabel("Amount").fill("0.00001");
      await sell.getByRole("button", { name: "Sell BTC" }).click();
      await expect(page.getByText(text("en", "exchange.placed_waiting"))).toBeVisible();
      const stop = orders.getByRole("row").filter({ hasText: text("en", "exchange.status_waiting") });
      await expect(stop).toHaveCount(1);
      await expect(stop).toContainText("1,000");
      await expect(available(page, "sell")).not.toHaveText(heldBefore);
      await stop.getByRole("button", { name: /Cancel Sell order/ }).click();
      await expect(page.getByText(text("en", "exchange.cancelled"))).toBeVisible();
      await expect(page.getByText(text("en", "exchange.no_open_orders"))).toBeVisible();
      await expect(available(page, "sell")).toHaveText(heldBefore);
    });

    test("a retried order post places one order", async ({ page }) => {
      const member = await createMember(javaScriptEnabled ? "retry-js" : "retry-nojs");
      await deposit(member.uid, "USDT", "5000");
      await logIn(page, member.email, member.password, PAGE);
      const buy = page.getByRole("form", { name: "Buy BTC" });
      const key = await buy.locator("input[name=idempotencyKey]").inputValue();
      const post = () =>
        page.request.post(PAGE, {
          form: { intent: "place", side: "buy", orderType: "limit", price: "20000", num: "0.01", idempotencyKey: key },
          maxRedirects: 0,
        });
      // The weak connection: the same form arrives twice (and a third time).
      const answers = await Promise.all([post(), post()]);
      answers.push(await post());
      for (const a of answers) expect(a.status()).toBe(302);
      await page.goto(PAGE);
      await expect(page.getByTestId("open-orders").getByRole("row")).toHaveCount(2);
      await expect(available(page, "buy")).toHaveText("4,800 USDT");
    });
  });
}

test("keyboard: the order form is reached by Tab with a visible focus, Enter places, the cancel button is reachable", async ({ page }) => {
  const member = await createMember("spot-keys");
  await deposit(member.uid, "USDT", "1000");
  await logIn(page, member.email, member.password, PAGE);
  const buy = page.getByRole("form", { name: "Buy BTC" });
  const price = buy.getByLabel("Price");
  /** The focused element, or the box around it, draws a focus ring. */
  const ringed = () =>
    page.evaluate(() => {
      const el = document.activeElement as HTMLElement | null;
      const drawn = (e: Element | null) => !!e && getComputedStyle(e).outlineStyle !== "none" && getComputedStyle(e).outlineWidth !== "0px";
      return drawn(el) || drawn(el?.parentElement ?? null);
    });
  // Keyboard focus (not a click) shows the ring: from the Limit tab, Tab on to the Market tab.
  await page.getByRole("link", { name: "Limit", exact: true }).focus();
  await page.keyboard.press("Tab");
  await expect(page.getByRole("link", { name: "Market", exact: true })).toBeFocused();
  expect(await ringed()).toBe(true);
  for (let i = 0; i < 30 && !(await price.evaluate((el) => el === document.activeElement)); i++) await page.keyboard.press("Tab");
  await expect(price).toBeFocused();
  expect(await ringed()).toBe(true);
  await price.selectText();
  await page.keyboard.type("20000");
  await page.keyboard.press("Tab");
  await expect(buy.getByLabel("Amount")).toBeFocused();
  await page.keyboard.type("0.01");
  await page.keyboard.press("Enter");
  await expect(page.getByText(text("en", "exchange.placed_open"))).toBeVisible();
  const cancel = page.getByTestId("open-orders").getByRole("button", { name: /Cancel Buy order/ });
  await expect(cancel).toBeVisible();
  for (let i = 0; i < 40 && !(await cancel.evaluate((el) => el === document.activeElement)); i++) await page.keyboard.press("Tab");
  await expect(cancel).toBeFocused();
  expect(await ringed()).toBe(true);
  await page.keyboard.press("Enter");
  await expect(page.getByText(text("en", "exchange.no_open_orders"))).toBeVisible();
});
