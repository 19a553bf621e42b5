import { expect, test, type Page } from "@playwright/test";
import { ENGINE_URL, expectNoSeriousA11yViolations, text } from "./support";

const en = (key: string) => text("en", key);
const LABEL = en("header.search_label");

/** The header's search box: a combobox once JavaScript runs, a plain search box without. */
/** The hot list holds the 8 busiest markets (spec §9), or every market when fewer are listed (the demo lists 6). */
async function hotCount(): Promise<number> {
  const answer = (await (await fetch(`${ENGINE_URL}/api/mjkj-web/coin/open/getSpotSymbols`)).json()) as { data: unknown[] };
  return Math.min(8, answer.data.length);
}

const searchBox = (page: Page, javaScriptEnabled: boolean) => page.getByRole("banner").getByRole(javaScriptEnabled ? "combobox" : "searchbox", { name: LABEL });

test.describe("header search without JavaScript", () => {
  test.use({ javaScriptEnabled: false });

  test("the box is a form to /search, which lists the hot markets, the matches in spot and contract, and suggestions", async ({ page }) => {
    await page.goto("/home/index");
    const box = searchBox(page, false);
    await box.fill("et");
    await box.press("Enter");
    await expect(page).toHaveURL(/\/search\?q=et$/);
    const main = page.getByRole("main");
    await expect(main.getByRole("heading", { level: 1, name: en("search.title") })).toBeVisible();
    const spot = main.getByRole("region", { name: en("market_list.tab_spot") });
    await expect(spot.getByRole("link", { name: /^ETH\/USDT/ })).toHaveAttribute("href", "/exchange/full-screen/ETH_USDT");
    // The perpetuals of ETH, each leading to its contract page.
    const contracts = main.getByRole("region", { name: en("market_list.tab_contract") });
    await expect(contracts.getByRole("link", { name: /^ETH\/USDT/ })).toHaveAttribute("href", "/exchange/full-contract/ETH_USDT");
    await expect(contracts.getByRole("link", { name: /^ETH\/USD\b(?!T)/ })).toHaveAttribute("href", "/exchange/full-contract/ETH_USD");

    // Nothing matches: four suggestions instead.
    await page.goto("/search?q=zzzz");
    const empty = main.getByRole("region", { name: en("search.empty").replace("{{q}}", "zzzz") });
    await expect(empty.getByRole("link")).toHaveCount(4);

    // No text: the hot list.
    await page.goto("/search");
    await expect(main.getByRole("region", { name: en("search.hot") }).getByRole("link")).toHaveCount(await hotCount());

    // A text the engine would refuse is answered 400 with the rule, and the hot list to choose from.
    const refused = await page.goto("/search?q=%3Cscript%3E");
    expect(refused?.status()).toBe(400);
    await expect(main.getByText(en("search.invalid"))).toBeVisible();
    await expect(main.getByRole("region", { name: en("search.hot") }).getByRole("link")).toHaveCount(await hotCount());
  });
});

test.describe("header search with JavaScript", () => {
  test("shows the hot list, finds ETH by “et”, and opens it with the keyboard", async ({ page }) => {
    const errors: string[] = [];
    page.on("pageerror", (e) => errors.push(e.message));
    await page.goto("/home/index");
    const box = searchBox(page, true);
    await box.click();
    const hot = page.getByRole("listbox", { name: en("search.hot") });
    await expect(hot.getByRole("option")).toHaveCount(await hotCount());
    await expect(box).toHaveAttribute("aria-expanded", "true");
    await expectNoSeriousA11yViolations(page);

    await box.fill("et");
    const results = page.getByRole("listbox", { name: new RegExp(`^${en("market_list.tab_spot")}`) });
    await expect(results.getByRole("option").first()).toContainText("ETH/USDT");
    await expect(page.getByRole("tab", { name: new RegExp(`^${en("market_list.tab_spot")}`) })).toHaveAttribute("aria-selected", "true");
    await expectNoSeriousA11yViolations(page);

    // The contract tab lists the perpetuals of ETH (in the order of their activity, which the simulator decides).
    await page.getByRole("tab", { name: new RegExp(`^${en("market_list.tab_contract")}`) }).click();
    await expect(page.getByRole("tabpanel").getByRole("option").filter({ hasText: "ETH/USDT" })).toHaveCount(1);
    await page.getByRole("tab", { name: new RegExp(`^${en("market_list.tab_spot")}`) }).click();

    // Escape closes; ArrowDown opens again; ArrowDown chooses the first option, Enter opens it.
    await box.focus();
    await box.press("Escape");
    await expect(page.getByRole("listbox")).toHaveCount(0);
    await expect(box).toHaveAttribute("aria-expanded", "false");
    await expect(box).toHaveValue("et");
    await box.press("ArrowDown");
    await expect(results.getByRole("option").first()).toBeVisible();
    await box.press("ArrowDown");
    const first = results.getByRole("option").first();
    await expect(first).toHaveAttribute("aria-selected", "true");
    await expect(box).toHaveAttribute("aria-activedescendant", (await first.getAttribute("id"))!);
    await box.press("Enter");
    await expect(page).toHaveURL(/\/exchange\/full-screen\/ETH_USDT$/);
    await expect(searchBox(page, true)).toHaveValue("");
    await expect(page.getByRole("listbox")).toHaveCount(0);
    expect(errors).toEqual([]);
  });

  test("suggests 4 markets when nothing matches, closes on an outside click, and Enter without a choice opens the search page", async ({ page }) => {
    await page.goto("/home/index");
    const box = searchBox(page, true);
    await box.fill("zzzz");
    await expect(page.getByText(en("search.empty").replace("{{q}}", "zzzz")).first()).toBeVisible();
    await expect(page.getByRole("listbox", { name: en("search.suggestions") }).getByRole("option")).toHaveCount(4);
    await expectNoSeriousA11yViolations(page);

    await page.getByRole("heading", { level: 1 }).click();
    await expect(page.getByRole("listbox")).toHaveCount(0);

    await box.fill("bit");
    await expect(page.getByRole("option").first()).toContainText("BTC/USDT");
    await box.press("Enter");
    await expect(page).toHaveURL(/\/search\?q=bit$/);
    await expect(
      page
        .getByRole("main")
        .getByRole("region", { name: en("market_list.tab_spot") })
        .getByRole("link", { name: /^BTC\/USDT/ }),
    ).toBeVisible();
  });
});
