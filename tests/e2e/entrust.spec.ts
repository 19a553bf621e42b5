import { readFileSync } from "node:fs";
import path from "node:path";
import { expect, test, type Page } from "@playwright/test";
import { ENGINE_URL, expectNoSeriousA11yViolations, latestCode, uniqueEmail } from "./support";

/**
 * A member's spot orders page (/account/entrust/spot): open orders, cancel (with and without
 * JavaScript), history, trades, the filter, one order's trades and the CSV export. Orders are
 * placed through the engine's API with the member's own token (the trading screen has its suite).
 * Needs the demo markets (the e2e engine runs the simulator).
 */
const API = `${ENGINE_URL}/api/mjkj-web`;
const PAGE = "/account/entrust/spot";
const SHOTS = process.env.ENTRUST_SHOTS;

interface Member {
  email: string;
  password: string;
  uid: string;
  token: string;
}

async function engine<T>(url: string, init: { method?: string; body?: unknown; token?: string } = {}): Promise<T> {
  const res = await fetch(`${API}/${url}`, {
    method: init.method ?? (init.body ? "POST" : "GET"),
    headers: { "content-type": "application/json", ...(init.token ? { "blade-auth": `bearer ${init.token}` } : {}) },
    body: init.body ? JSON.stringify(init.body) : undefined,
  });
  const body = (await res.json()) as { code: number; msg: string; data: T };
  expect(body.code, `${url}: ${body.msg}`).toBe(200);
  return body.data;
}

/** A new member with USDT in the spot account and an engine token of their own. */
async function fundedMember(tag: string): Promise<Member> {
  const email = uniqueEmail(tag);
  const password = "orders123";
  await engine(`coin/open/send/email?email=${encodeURIComponent(email)}&type=register`);
  const { code } = await latestCode(email);
  const { uid } = await engine<{ uid: string }>("coin/open/register", { body: { accountType: "email", email, code, password } });
  const admin = readFileSync(path.join(process.env.E2E_DATA_DIR!, "admin-token"), "utf8").trim();
  const credited = await fetch(`${ENGINE_URL}/admin/deposit`, {
    method: "POST",
    headers: { "content-type": "application/json", "x-admin-token": admin },
    body: JSON.stringify({ uid, coin: "USDT", account: "spot", amount: "5000", reference: `entrust-${uid}` }),
  });
  expect(credited.status).toBe(200);
  const login = await fetch(`${ENGINE_URL}/api/blade-auth/oauth/token`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ grant_type: "password", accountType: "email", email, password, deviceId: `api-${uid}` }),
  });
  const token = ((await login.json()) as { data: { access_token: string } }).data.access_token;
  return { email, password, uid, token };
}

let keys = 0;
function placeOrder(member: Member, type: "1" | "2" | "3", order: Record<string, string>) {
  return engine<{ orderId: string; status: string; filled: string; trades: number }>(`coin/entrust/exchange/${type}`, {
    token: member.token,
    body: { ...order, idempotencyKey: `entrust-${member.uid}-${++keys}-${Date.now()}` },
  });
}

async function logIn(page: Page, member: Member, redirectTo: string) {
  await page.goto(`/user/login?redirectTo=${encodeURIComponent(redirectTo)}`);
  await page.getByLabel("E-mail").fill(member.email);
  await page.getByLabel("Password", { exact: true }).fill(member.password);
  await page.getByRole("button", { name: "Log in", exact: true }).click();
  await expect(page).toHaveURL(new RegExp(`${redirectTo.replace(/[?/]/g, "\\$&")}$`));
}

const table = (page: Page, name: string) => page.getByRole("table", { name });
const shot = async (page: Page, name: string) => {
  if (SHOTS) await page.screenshot({ path: path.join(SHOTS, `${name}.png`), fullPage: true });
};

for (const javaScriptEnabled of [true, false]) {
  test.describe(`spot orders, JavaScript ${javaScriptEnabled ? "on" : "off"}`, () => {
    test.use({ javaScriptEnabled });

    test("lists open orders, cancels one, shows history, trades and one order's fills, filters and exports", async ({ page }) => {
      test.setTimeout(90_000);
      const member = await fundedMember(javaScriptEnabled ? "orders-js" : "orders-nojs");
      // Far below the market: these rest on the book.
      const btc = await placeOrder(member, "1", { symbol: "BTC_USDT", direction: "buy", price: "1000", num: "0.01" });
      const eth = await placeOrder(member, "1", { symbol: "ETH_USDT", direction: "buy", price: "100.5", num: "0.1" });
      // A stop buy that waits for ETH to rise to 100,000, then bids 100.
      const stop = await placeOrder(member, "3", { symbol: "ETH_USDT", direction: "buy", stopLossPrice: "100000", triggerMoney: "100", num: "0.1" });
      expect([btc.status, eth.status, stop.status]).toEqual(["open", "open", "waiting"]);
      // A small market buy trades against the simulated liquidity, as taker. (Its last cents may
      // not buy a whole lot: then it ends cancelled with what it filled, like any market order.)
      const market = await placeOrder(member, "2", { symbol: "BTC_USDT", direction: "buy", money: "20" });
      expect(market.trades).toBeGreaterThan(0);

      // The account menu leads here; /account/entrust and the account-center address redirect here.
      await logIn(page, member, "/account/center/info");
      await page.getByRole("navigation", { name: "Account center" }).getByRole("link", { name: "Trade orders" }).click();
      await expect(page).toHaveURL(new RegExp(`${PAGE}$`));
      await page.goto("/account/entrust");
      await expect(page).toHaveURL(new RegExp(`${PAGE}$`));
      await page.goto("/account/center/entrust/spot?tab=history");
      await expect(page).toHaveURL(new RegExp(`${PAGE}\\?tab=history$`));
      await page.goto(PAGE);

      await expect(page.getByRole("heading", { name: "Spot orders" })).toBeVisible();
      await expect(page.getByRole("link", { name: "Open orders" })).toHaveAttribute("aria-current", "page");
      const open = table(page, "Open orders");
      await expect(open.getByRole("row")).toHaveCount(4); // header + 3
      const btcRow = open.getByRole("row").filter({ hasText: "BTC/USDT" });
      await expect(btcRow).toContainText("Limit");
      await expect(btcRow).toContainText("Buy");
      await expect(btcRow).toContainText("1,000");
      await expect(btcRow).toContainText("0.01");
      await expect(btcRow).toContainText("Open");
      await expect(open.getByRole("row").filter({ hasText: "100.5" })).toContainText("ETH/USDT");
      const stopRow = open.getByRole("row").filter({ hasText: "Stop-limit" });
      await expect(stopRow).toContainText("ETH/USDT");
      await expect(stopRow).toContainText("Stop-loss 100,000");
      await expect(stopRow).toContainText("Waiting for trigger");
      if (javaScriptEnabled) await expectNoSeriousA11yViolations(page);
      await shot(page, `open-${javaScriptEnabled ? "js" : "nojs"}`);

      // Cancel: the page comes back with a toast and without the order.
      await btcRow.getByRole("button", { name: "Cancel Buy order BTC/USDT at 1,000" }).click();
      await expect(page.getByText("Order cancelled.")).toBeVisible();
      await expect(page).toHaveURL(new RegExp(`${PAGE}$`));
      await expect(open.getByRole("row")).toHaveCount(3);
      await expect(open.getByRole("row").filter({ hasText: "BTC/USDT" })).toHaveCount(0);

      // History: the cancelled limit order and the filled market order with its average price and fee.
      await page.getByRole("link", { name: "Order history" }).click();
      await expect(page).toHaveURL(new RegExp(`${PAGE}\\?tab=history$`));
      const history = table(page, "Order history");
      await expect(history.getByRole("row")).toHaveCount(3);
      const limitRow = history.getByRole("row").filter({ hasText: "Limit" });
      await expect(limitRow).toContainText("Cancelled by you");
      const filled = history.getByRole("row").filter({ hasText: "Market" });
      await expect(filled).toContainText("BTC/USDT");
      await expect(filled).toContainText("20 USDT"); // the budget of the market buy, a space before its coin
      await expect(filled).toContainText(`${market.filled} BTC`);
      await expect(filled).toContainText(market.status === "filled" ? "Filled" : "Partially filled, rest cancelled");
      await expect(filled).toContainText(/\d+(\.\d+)? USDT\s*\d+(\.\d+)? USDT\s*\d+(\.\d+)? BTC/); // average price, total, fee
      if (javaScriptEnabled) await expectNoSeriousA11yViolations(page);
      await shot(page, `history-${javaScriptEnabled ? "js" : "nojs"}`);

      // One order's trades.
      await filled.getByRole("link", { name: /^Details of Buy order BTC\/USDT at Market$/ }).click();
      await expect(page).toHaveURL(new RegExp(`${PAGE}/${market.orderId}$`));
      await expect(page.getByRole("heading", { name: /Order details/ })).toContainText(market.orderId);
      const fills = table(page, "Trades of this order");
      await expect(fills.getByRole("row").nth(1)).toContainText("Taker");
      await expect(fills.getByRole("row").nth(1)).toContainText("BTC");
      if (javaScriptEnabled) await expectNoSeriousA11yViolations(page);
      await shot(page, `order-${javaScriptEnabled ? "js" : "nojs"}`);
      await page.getByRole("link", { name: /Back to spot orders/ }).click();
      await expect(page).toHaveURL(new RegExp(`${PAGE}\\?tab=history$`));

      // Trade details: the member's fills, each with role and fee.
      await page.getByRole("link", { name: "Trade details" }).click();
      const trades = table(page, "Trade details");
      await expect(trades.getByRole("row").nth(1)).toContainText("BTC/USDT");
      await expect(trades.getByRole("row").nth(1)).toContainText("Taker");
      if (javaScriptEnabled) await expectNoSeriousA11yViolations(page);
      await shot(page, `trades-${javaScriptEnabled ? "js" : "nojs"}`);

      // Filter by symbol (a GET form): only ETH orders; none in history.
      await page.getByRole("link", { name: "Open orders" }).click();
      await expect(page.getByRole("link", { name: "Open orders" })).toHaveAttribute("aria-current", "page");
      await page.getByLabel("Pair").selectOption({ label: "ETH/USDT" });
      await page.getByRole("button", { name: "Search" }).click();
      await expect(page).toHaveURL(/tab=open&symbol=ETH_USDT/);
      await page.getByLabel("Side").selectOption({ label: "Buy" });
      await page.getByRole("button", { name: "Search" }).click();
      await expect(page).toHaveURL(/tab=open&symbol=ETH_USDT&side=buy/);
      await expect(open.getByRole("row")).toHaveCount(3);
      await expect(open.getByRole("row").nth(1)).toContainText("ETH/USDT");
      await expect(open.getByRole("row").nth(2)).toContainText("ETH/USDT");
      await page.getByRole("link", { name: "Order history" }).click();
      await expect(page).toHaveURL(/tab=history&symbol=ETH_USDT&side=buy/);
      await expect(page.getByText("No records match this filter.")).toBeVisible();
      await page.getByRole("link", { name: "Reset" }).first().click();
      await expect(page).toHaveURL(new RegExp(`${PAGE}\\?tab=history$`));
      // The form shows the filter of the address it is on (after a link, too).
      await expect(page.getByLabel("Pair")).toHaveValue("");
      await expect(page.getByLabel("Side")).toHaveValue("");

      // A bad range is explained next to its field; nothing is listed.
      await page.goto(`${PAGE}?tab=history&from=2026-02-02&to=2026-02-01`);
      await expect(page.getByText("The end date cannot be before the start date.")).toBeVisible();
      await expect(page.getByLabel("To", { exact: true })).toHaveAttribute("aria-invalid", "true");
      await expect(page.getByLabel("To", { exact: true })).toHaveValue("2026-02-01");

      // CSV export of the history.
      await page.goto(`${PAGE}?tab=history`);
      const [download] = await Promise.all([page.waitForEvent("download"), page.getByRole("link", { name: "Export CSV" }).click()]);
      expect(download.suggestedFilename()).toMatch(/^spot-order-history-\d{8}\.csv$/);
      const csv = readFileSync((await download.path())!, "utf8");
      const lines = csv.trim().split("\r\n");
      expect(lines[0]).toMatch(/^Time \(UTC\),Order ID,Symbol,Side,Type/);
      expect(lines).toHaveLength(3);
      expect(csv).toContain(`,${btc.orderId},BTC/USDT,buy,limit,GTC,1000,`);
      expect(csv).toContain(`,${market.orderId},BTC/USDT,buy,market,IOC,,`);
      expect(csv).not.toContain(eth.orderId);

      if (SHOTS && javaScriptEnabled) {
        await page.getByRole("button", { name: "Switch to day theme" }).click();
        await expect(page.getByRole("button", { name: "Switch to night theme" })).toBeVisible();
        await expectNoSeriousA11yViolations(page);
        await shot(page, "history-day");
      }
    });
  });
}

test("another member's order is not found, and the empty tabs say so", async ({ page }) => {
  const owner = await fundedMember("orders-owner");
  const order = await placeOrder(owner, "1", { symbol: "BTC_USDT", direction: "buy", price: "1000", num: "0.01" });
  const stranger = await fundedMember("orders-stranger");
  await logIn(page, stranger, PAGE);
  await expect(page.getByText("You have no open orders.")).toBeVisible();
  await expect(page.getByRole("link", { name: "Export CSV" })).toHaveCount(0);
  await page.getByRole("link", { name: "Order history" }).click();
  await expect(page.getByText("You have no finished orders yet.")).toBeVisible();
  await page.getByRole("link", { name: "Trade details" }).click();
  await expect(page.getByText("You have no trades yet.")).toBeVisible();
  await expectNoSeriousA11yViolations(page);
  const res = await page.goto(`${PAGE}/${order.orderId}`);
  expect(res?.status()).toBe(404);
  await expect(page.getByRole("heading", { name: "This order was not found." })).toBeVisible();
  const csv = await page.request.get(`${PAGE}/export?tab=open`);
  expect(csv.headers()["content-disposition"]).toMatch(/^attachment; filename="spot-open-orders-\d{8}\.csv"$/);
  expect(await csv.text()).not.toContain(order.orderId);
});
