import { expect, test, type Page } from "@playwright/test";
import { ENGINE_URL, expectNoSeriousA11yViolations, latestCode, text, uniqueEmail } from "./support";

/**
 * The market list (/market/main): search, sort, favourites, with and without JavaScript; live
 * updates, focus and accessibility with JavaScript. The suite's engine lists the demo markets.
 */
const API = `${ENGINE_URL}/api/mjkj-web`;
const en = (key: string, values: Record<string, string> = {}) => text("en", key).replace(/\{\{(\w+)\}\}/g, (_, k: string) => values[k] ?? "");

/** A new member, registered through the engine's API (the register page has its own suite). */
async function createMember(): Promise<{ email: string; password: string }> {
  const email = uniqueEmail("market");
  const password = "market123";
  expect((await fetch(`${API}/coin/open/send/email?email=${encodeURIComponent(email)}&type=register`)).ok).toBe(true);
  const { code } = await latestCode(email);
  const res = await fetch(`${API}/coin/open/register`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ accountType: "email", email, code, password }),
  });
  expect(((await res.json()) as { code: number }).code).toBe(200);
  return { email, password };
}

async function logInTo(page: Page, redirectTo: string) {
  const { email, password } = await createMember();
  await page.goto(`/user/login?redirectTo=${encodeURIComponent(redirectTo)}`);
  await page.getByLabel("E-mail").fill(email);
  await page.getByLabel("Password", { exact: true }).fill(password);
  await page.getByRole("button", { name: "Log in", exact: true }).click();
  await expect(page).toHaveURL((url) => url.pathname + url.search === redirectTo);
  // The URL changes a moment before the page does (client-side navigation).
  await expect(page.getByRole("heading", { level: 1, name: en("market_list.title") })).toBeVisible();
}

/** The engine's spot markets, in listing order. */
async function listedSymbols(): Promise<string[]> {
  const res = await fetch(`${API}/coin/open/market/initData?type=0`);
  return ((await res.json()) as { data: Array<{ symbolName: string }> }).data.map((m) => m.symbolName);
}

const rowSymbols = (page: Page) => page.locator("tbody tr[data-symbol]").evaluateAll((rows) => rows.map((r) => r.getAttribute("data-symbol")!));

/** One column as shown, read in one go (a live push cannot land halfway). */
const shownColumn = (page: Page, column: "price" | "change" | "volume") =>
  page.locator("tbody tr[data-symbol]").evaluateAll((rows, c) => rows.map((r) => r.querySelector(`[data-column="${c}"]`)!.textContent!.trim()), column);

/** "$64,008.59", "+5.8%", "$4.65M" or "--" as a number (a display value; only compared here). */
function shownValue(shown: string): number | null {
  if (shown.includes("--")) return null;
  const match = shown.replace(/,/g, "").match(/(-?\d+(?:\.\d+)?)([MBT])?/);
  if (!match) throw new Error(`not a number: ${shown}`);
  const scale = { M: 1e6, B: 1e9, T: 1e12 }[match[2] as "M" | "B" | "T"] ?? 1;
  return Number(match[1]) * scale;
}

/** Shown values are in the sort's order, markets without a ticker ("--") last. */
function expectSorted(shown: string[], dir: "asc" | "desc") {
  const values = shown.map(shownValue);
  const firstEmpty = values.indexOf(null);
  if (firstEmpty !== -1)
    expect(
      values.slice(firstEmpty).every((v) => v === null),
      `"--" last in ${shown.join(" ")}`,
    ).toBe(true);
  const known = values.filter((v): v is number => v !== null);
  const expected = [...known].sort((a, b) => (dir === "asc" ? a - b : b - a));
  expect(known, shown.join(" ")).toEqual(expected);
}

async function sortBy(page: Page, column: string, dir: "asc" | "desc") {
  const header = page.getByRole("columnheader", { name: new RegExp(`^${column}`) });
  await header.getByRole("link").click();
  await expect(header).toHaveAttribute("aria-sort", dir === "asc" ? "ascending" : "descending");
  // The rows come after the header (the page streams them): read nothing before they are there
  // (an empty column would pass for sorted).
  await expect(page.locator("tbody tr[data-symbol]").first()).toBeVisible();
  // Keep the pointer off the rows: while it rests on them, live pushes do not reorder rows.
  await page.mouse.move(0, 0);
}

for (const javaScriptEnabled of [true, false]) {
  test.describe(`market list, JavaScript ${javaScriptEnabled ? "on" : "off"}`, () => {
    test.use({ javaScriptEnabled });

    test("a visitor sees every market, searches case-insensitively and sorts by change and volume", async ({ page }) => {
      const listed = await listedSymbols();
      expect(listed.length).toBeGreaterThan(1);
      await page.goto("/home/index");
      await page.getByRole("banner").getByRole("link", { name: "Markets", exact: true }).click();
      await expect(page).toHaveURL(/\/market\/main$/);
      await expect(page.getByRole("heading", { level: 1, name: en("market_list.title") })).toBeVisible();
      const tabs = page.getByRole("navigation", { name: en("market_list.tabs_label") }).getByRole("link");
      await expect(tabs).toHaveCount(2); // no favourites for a visitor; the perpetual contracts
      await expect(tabs.first()).toHaveText(/^Spot \(\d+\)$/);
      await expect(tabs.first()).toHaveAttribute("aria-current", "page");
      await expect(tabs.last()).toHaveText(en("market_list.tab_contract"));
      // The contract tab: both kinds of perpetual, each leading to its contract page.
      await tabs.last().click();
      await expect(page).toHaveURL(/tab=contract/);
      await expect(page.getByRole("link", { name: "BTC/USD", exact: true })).toHaveAttribute("href", "/exchange/full-contract/BTC_USD");
      await expect(page.getByRole("link", { name: "ETH/USDT", exact: true })).toHaveAttribute("href", "/exchange/full-contract/ETH_USDT");
      await page.goto("/market/main");
      await expect.poll(() => rowSymbols(page)).toEqual(listed);
      await expect(page.getByRole("link", { name: "BTC/USDT", exact: true })).toHaveAttribute("href", "/exchange/full-screen/BTC_USDT");
      // A visitor's star leads to the login, which comes back here.
      await expect(page.getByRole("link", { name: en("market_list.favourite_login", { symbol: "BTC/USDT" }) })).toHaveAttribute(
        "href",
        `/user/login?redirectTo=${encodeURIComponent("/market/main")}`,
      );

      // Search: case-insensitive, inside the coin or symbol name.
      const search = page.getByRole("searchbox", { name: en("market_list.search_label") });
      await search.fill("bTc");
      await page.getByRole("button", { name: en("market_list.search_submit") }).click();
      await expect(page).toHaveURL(/\?q=bTc$/);
      await expect(page.getByText(en("market_list.results", { q: "bTc", count: "1" }))).toBeVisible();
      // Polled, as below: the text above the table can arrive before the table's rows.
      await expect.poll(() => rowSymbols(page)).toEqual(listed.filter((s) => s.toLowerCase().includes("btc")));
      expect(await rowSymbols(page)).toEqual(["BTC/USDT"]);

      await search.fill("zzz");
      await page.getByRole("button", { name: en("market_list.search_submit") }).click();
      await expect(page.getByRole("cell", { name: en("market_list.empty_search", { q: "zzz" }) })).toBeVisible();
      await page
        .getByRole("cell")
        .getByRole("link", { name: en("market_list.search_clear") })
        .click();
      await expect(page).toHaveURL(/\/market\/main$/);
      await expect(page.getByRole("searchbox", { name: en("market_list.search_label") })).toHaveValue("");
      // Polled: the cleared page's rows may still be arriving when the address has changed.
      await expect.poll(() => rowSymbols(page)).toEqual(listed);

      // Sorting by the headers' links: high to low first, again for low to high.
      await sortBy(page, "24h change", "desc");
      await expect(page).toHaveURL(/\?sort=change&dir=desc$/);
      expectSorted(await shownColumn(page, "change"), "desc");
      await sortBy(page, "24h change", "asc");
      expectSorted(await shownColumn(page, "change"), "asc");
      await sortBy(page, "24h volume", "desc");
      await expect(page).toHaveURL(/\?sort=volume&dir=desc$/);
      expectSorted(await shownColumn(page, "volume"), "desc");
      await expect(page.getByRole("columnheader", { name: /^24h change/ })).not.toHaveAttribute("aria-sort", /.+/);
      await sortBy(page, "Last price", "desc");
      expectSorted(await shownColumn(page, "price"), "desc");
      expect((await rowSymbols(page)).sort()).toEqual([...listed].sort());

      // The search keeps the sort (and the sort the search).
      await search.fill("usdt");
      await page.getByRole("button", { name: en("market_list.search_submit") }).click();
      await expect(page).toHaveURL(/\?q=usdt&sort=price&dir=desc$/);
      await expect(page.getByText(en("market_list.results", { q: "usdt", count: String(listed.length) }))).toBeVisible();
      expectSorted(await shownColumn(page, "price"), "desc");
    });

    test("a member adds a favourite, finds it on the favourites tab and removes it there", async ({ page }) => {
      await logInTo(page, "/market/main?q=eth");
      const favouritesTab = page.getByRole("link", { name: `${en("market_list.tab_favourites")} (` });
      await expect(favouritesTab).toHaveText(/\(0\)/);
      await page.getByRole("button", { name: en("market_list.favourite_add", { symbol: "ETH/USDT" }) }).click();
      await expect(page.getByRole("status").filter({ hasText: en("market_list.favourite_added") })).toBeVisible();
      await expect(page.getByRole("button", { name: en("market_list.favourite_remove", { symbol: "ETH/USDT" }) })).toBeVisible();
      await expect(page).toHaveURL(/\/market\/main\?q=eth$/); // back on the same view
      await expect(favouritesTab).toHaveText(/\(1\)/);

      // Another favourite, added from the whole list.
      await page.goto("/market/main");
      await page.getByRole("button", { name: en("market_list.favourite_add", { symbol: "BTC/USDT" }) }).click();
      await expect(page.getByRole("button", { name: en("market_list.favourite_remove", { symbol: "BTC/USDT" }) })).toBeVisible();
      await expect(favouritesTab).toHaveText(/\(2\)/);

      await favouritesTab.click();
      await expect(page).toHaveURL(/\?tab=favourites$/);
      await expect(favouritesTab).toHaveAttribute("aria-current", "page");
      await expect.poll(async () => (await rowSymbols(page)).sort()).toEqual(["BTC/USDT", "ETH/USDT"]);
      // Searching stays on the favourites tab.
      await page.getByRole("searchbox", { name: en("market_list.search_label") }).fill("btc");
      await page.getByRole("button", { name: en("market_list.search_submit") }).click();
      await expect(page).toHaveURL(/\?tab=favourites&q=btc$/);
      await expect(page.getByText(en("market_list.results", { q: "btc", count: "1" }))).toBeVisible();
      await expect.poll(() => rowSymbols(page)).toEqual(["BTC/USDT"]);

      await page.getByRole("button", { name: en("market_list.favourite_remove", { symbol: "BTC/USDT" }) }).click();
      await expect(page.getByRole("status").filter({ hasText: en("market_list.favourite_removed") })).toBeVisible();
      await expect(page.getByRole("cell", { name: en("market_list.empty_search", { q: "btc" }) })).toBeVisible();
      await page.goto("/market/main?tab=favourites");
      expect(await rowSymbols(page)).toEqual(["ETH/USDT"]);
      await page.getByRole("button", { name: en("market_list.favourite_remove", { symbol: "ETH/USDT" }) }).click();
      await expect(page.getByText(en("market_list.empty_favourites"))).toBeVisible();
      await page.reload();
      await expect(page.getByText(en("market_list.empty_favourites"))).toBeVisible();
      await expect(favouritesTab).toHaveText(/\(0\)/);
    });
  });
}

test.describe("market list with JavaScript", () => {
  test("a visitor's favourites tab asks for a login and comes back", async ({ page }) => {
    await page.goto("/market/main?tab=favourites");
    await expect(page).toHaveURL(/\/user\/login\?redirectTo=%2Fmarket%2Fmain%3Ftab%3Dfavourites$/);
  });

  test("prices update live, keeping the search and the sort, without a reload", async ({ page }) => {
    await page.goto("/market/main?q=usdt&sort=price&dir=asc");
    await page.evaluate(() => ((window as unknown as { marker: number }).marker = 42));
    const first = await shownColumn(page, "price");
    // The simulated liquidity trades every second or two; the pushes arrive about as often.
    await expect.poll(() => shownColumn(page, "price"), { timeout: 20_000 }).not.toEqual(first);
    expect(await page.evaluate(() => (window as unknown as { marker?: number }).marker)).toBe(42);
    expectSorted(await shownColumn(page, "price"), "asc");
    await page.goto("/market/main?q=ETH");
    const eth = await shownColumn(page, "price");
    await expect.poll(() => shownColumn(page, "price"), { timeout: 20_000 }).not.toEqual(eth);
    expect(await rowSymbols(page)).toEqual(["ETH/USDT"]);
  });

  test("keyboard: the stars are reachable, named, and keep focus through a toggle and live updates", async ({ page }) => {
    await logInTo(page, "/market/main?sort=change&dir=desc");
    const firstSymbol = (await rowSymbols(page))[0]!;
    await page.getByRole("button", { name: en("market_list.search_submit") }).focus();
    const seen: string[] = [];
    for (let i = 0; i < 20 && !seen.at(-1)?.includes(firstSymbol); i++) {
      await page.keyboard.press("Tab");
      seen.push((await page.evaluate(() => document.activeElement?.getAttribute("aria-label") ?? document.activeElement?.textContent ?? "")) ?? "");
    }
    expect(seen.at(-1)).toBe(en("market_list.favourite_add", { symbol: firstSymbol }));
    await page.keyboard.press("Enter");
    const focused = () => page.evaluate(() => document.activeElement?.getAttribute("aria-label"));
    await expect.poll(focused).toBe(en("market_list.favourite_remove", { symbol: firstSymbol }));
    await expect(page.getByRole("link", { name: `${en("market_list.tab_favourites")} (` })).toHaveText(/\(1\)/);
    // Live pushes re-sort the list by change, but not under the focused star: two pushes that
    // changed the prices shown (counted, not waited for by the clock), focus kept after each.
    for (let push = 0; push < 2; push++) {
      const shown = await shownColumn(page, "price");
      await expect.poll(() => shownColumn(page, "price"), { timeout: 20_000 }).not.toEqual(shown);
      expect(await focused()).toBe(en("market_list.favourite_remove", { symbol: firstSymbol }));
    }
    await page.keyboard.press("Enter");
    await expect.poll(focused).toBe(en("market_list.favourite_add", { symbol: firstSymbol }));
    // Every star has a name saying what it does.
    const stars = page.locator("tbody").getByRole("button");
    for (const name of await stars.evaluateAll((buttons) => buttons.map((b) => b.getAttribute("aria-label")))) {
      expect(name).toMatch(/^(Add|Remove) [A-Z0-9]+\/[A-Z0-9]+ (to|from) favourites$/);
    }
  });

  test("removing a favourite on the favourites tab moves focus to the next star, not to the top", async ({ page }) => {
    await logInTo(page, "/market/main");
    for (const symbol of ["BTC/USDT", "ETH/USDT"]) {
      await page.getByRole("button", { name: en("market_list.favourite_add", { symbol }) }).click();
      await expect(page.getByRole("button", { name: en("market_list.favourite_remove", { symbol }) })).toBeVisible();
    }
    // The star turns at once; the tab reads the favourites the server has stored, so ask until both are.
    await expect
      .poll(async () => {
        await page.goto("/market/main?tab=favourites");
        return (await rowSymbols(page)).length;
      })
      .toBe(2);
    const [first, second] = await rowSymbols(page);
    const focused = () => page.evaluate(() => document.activeElement?.getAttribute("aria-label") ?? document.activeElement?.tagName);
    await page.getByRole("button", { name: en("market_list.favourite_remove", { symbol: first! }) }).focus();
    await page.keyboard.press("Enter");
    await expect.poll(() => rowSymbols(page)).toEqual([second]);
    await expect.poll(focused).toBe(en("market_list.favourite_remove", { symbol: second! }));
    await page.keyboard.press("Enter");
    await expect(page.getByText(en("market_list.empty_favourites"))).toBeVisible();
    await expect.poll(focused).toBe("H1");
  });

  test("axe finds no serious violations, night and day, visitor and member", async ({ page }) => {
    await page.goto("/market/main?sort=volume&dir=desc");
    await expectNoSeriousA11yViolations(page);
    await page.goto("/market/main?q=zzz");
    await expectNoSeriousA11yViolations(page);
    await logInTo(page, "/market/main?tab=favourites");
    await expectNoSeriousA11yViolations(page);
    await page.goto("/market/main");
    await page
      .getByRole("banner")
      .getByRole("button", { name: text("en", "header.theme_switch_to_day") })
      .click();
    await expect(page.locator('meta[name="color-scheme"]')).toHaveAttribute("content", "light");
    await expectNoSeriousA11yViolations(page);
  });
});
