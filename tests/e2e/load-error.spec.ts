import { expect, test, type Page, type Route } from "@playwright/test";
import { expectNoSeriousA11yViolations, text } from "./support";

/**
 * Spec §8 "a chunk load failure after 120 seconds raises a load error" and §9 "chunk load timeout
 * 120000 ms" (decision 033): a page change whose script or data never arrives is announced after
 * two minutes, with a plain link that loads the page in full; a chunk that fails outright is left to
 * Remix (it reloads the document), and one that fails inside a page shows the same words.
 */
const TIMEOUT_MS = 120_000;
const MARKETS_CHUNK = /\/build\/routes\/market\+\/main-[A-Z0-9]+\.js$/;
const MARKETS_DATA = /\/market\/main\.data(\?|$)/;
const alertOf = (page: Page) => page.getByRole("alert").filter({ hasText: text("en", "errors.load_title") });

/** Holds every request matching `url` unanswered until `release` is called. */
async function hold(page: Page, url: RegExp) {
  const held: Route[] = [];
  let holding = true;
  await page.route(url, (route) => (holding ? void held.push(route) : route.continue()));
  return {
    held: () => held.length,
    release: async () => {
      holding = false;
      for (const route of held.splice(0)) await route.continue();
    },
  };
}

/** The home page, hydrated: the header's menu answers Escape only with JavaScript (as in shell.spec.ts). */
async function openHome(page: Page, lang = "en") {
  await page.goto("/home/index");
  const language = page.getByLabel(text(lang, "header.language_current").replace("{{language}}", ""));
  await language.click();
  await page.keyboard.press("Escape");
  await expect(language).toBeFocused();
  await page.evaluate(() => ((window as unknown as { sameDocument: boolean }).sameDocument = true));
}

const marketsLink = (page: Page, lang = "en") => page.getByRole("banner").getByRole("link", { name: text(lang, "nav.markets"), exact: true });

/** From the home page, with the page's clock under the test's hand, the header's "Markets" link. */
async function startSlowChange(page: Page, lang = "en") {
  await page.clock.install();
  await openHome(page, lang);
  await marketsLink(page, lang).click();
}

for (const [what, url] of [
  ["script chunk", MARKETS_CHUNK],
  ["data", MARKETS_DATA],
] as const) {
  test(`a page change whose ${what} never arrives says so after 120 s, not before, and goes when it arrives`, async ({ page }) => {
    const slow = await hold(page, url);
    await startSlowChange(page);
    await expect.poll(slow.held).toBeGreaterThan(0);
    // The message's timer is set by an effect that may commit after the request left: the clock
    // moves once the page shows the change under way (the same effect marks it).
    await expect(page.locator("html[data-page-change]")).toHaveCount(1);

    await page.clock.runFor(TIMEOUT_MS - 2_000);
    await expect(alertOf(page)).toHaveCount(0);
    await page.clock.runFor(3_000);
    const alert = alertOf(page);
    await expect(alert).toBeVisible();
    await expect(alert).toContainText(text("en", "errors.load_text"));
    await expect(alert.getByRole("link", { name: text("en", "errors.load_reload") })).toHaveAttribute("href", "/market/main");
    await expect(page).toHaveURL(/\/home\/index$/);
    await expectNoSeriousA11yViolations(page);

    // It arrives after all: the page changes and the message goes.
    await slow.release();
    await expect(page).toHaveURL(/\/market\/main$/);
    await expect(alertOf(page)).toHaveCount(0);
    expect(await page.evaluate(() => (window as unknown as { sameDocument?: boolean }).sameDocument)).toBe(true);
  });
}

test("the load error's link loads the page in full without the chunk, and the message can be dismissed by keyboard", async ({ page }) => {
  const slow = await hold(page, MARKETS_CHUNK);
  await startSlowChange(page);
  await expect.poll(slow.held).toBeGreaterThan(0);
  await expect(page.locator("html[data-page-change]")).toHaveCount(1);
  await page.clock.runFor(TIMEOUT_MS + 1_000);
  const alert = alertOf(page);
  await expect(alert).toBeVisible();

  // Dismissed: gone, the page change still under way.
  await alert.getByRole("button", { name: text("en", "errors.load_dismiss") }).focus();
  await page.keyboard.press("Enter");
  await expect(alertOf(page)).toHaveCount(0);

  // A fresh page and the same slow change, then the link: the server renders the page, which needs
  // no script to read.
  const before = slow.held();
  await openHome(page);
  await marketsLink(page).click();
  await expect.poll(slow.held).toBeGreaterThan(before);
  // The message's timer is set by an effect that may commit just after the chunk's request left,
  // so a single run of the clock can pass before the timer exists (seen in a fresh-clone CI run):
  // the clock runs on until the message shows. When it shows is the tests above's to check.
  const reload = alertOf(page).getByRole("link", { name: text("en", "errors.load_reload") });
  await expect(async () => {
    await page.clock.runFor(TIMEOUT_MS + 1_000);
    await expect(reload).toBeVisible({ timeout: 1_000 });
  }).toPass({ timeout: 20_000 });
  await reload.click();
  await expect(page).toHaveURL(/\/market\/main$/);
  await expect(page.getByRole("heading", { level: 1 })).toBeVisible();
  expect(await page.evaluate(() => (window as unknown as { sameDocument?: boolean }).sameDocument)).toBeUndefined();
});

test("in German: the same message in the page's language", async ({ page, context }) => {
  await context.addCookies([{ name: "lang", value: Buffer.from(JSON.stringify("de")).toString("base64"), url: "http://127.0.0.1" }]);
  await hold(page, MARKETS_CHUNK);
  await startSlowChange(page, "de");
  await expect(page.locator("html[data-page-change]")).toHaveCount(1);
  await page.clock.runFor(TIMEOUT_MS + 1_000);
  const alert = page.getByRole("alert").filter({ hasText: text("de", "errors.load_title") });
  await expect(alert).toContainText(text("de", "errors.load_text"));
  await expect(alert.getByRole("link", { name: text("de", "errors.load_reload") })).toHaveAttribute("href", "/market/main");
  await expect(alert.getByRole("button", { name: text("de", "errors.load_dismiss") })).toBeVisible();
});

test("a route chunk that fails outright is left to Remix: it reloads the document, and the page works", async ({ page }) => {
  let failed = 0;
  await page.route(MARKETS_CHUNK, (route) => (failed++ === 0 ? route.abort("failed") : route.continue()));
  await openHome(page);
  await marketsLink(page).click();
  // A new document of the page it was on (Remix's own answer to a failed import), not an error page.
  await expect.poll(() => page.evaluate(() => (window as unknown as { sameDocument?: boolean }).sameDocument ?? "new").catch(() => "navigating")).toBe("new");
  await expect(page).toHaveURL(/\/home\/index$/);
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("Trade crypto with confidence");
  await expect(page.getByRole("alert")).toHaveCount(0);
  await marketsLink(page).click();
  await expect(page).toHaveURL(/\/market\/main$/);
});

test("a page's data that fails to arrive shows the load error in the member's language, with the page again as a link", async ({ page, context }) => {
  // The failed data read fails the root's share of it too: the root error page keeps the shell last shown.
  await context.addCookies([{ name: "lang", value: Buffer.from(JSON.stringify("de")).toString("base64"), url: "http://127.0.0.1" }]);
  await page.route(MARKETS_DATA, (route) => route.abort("failed"));
  await openHome(page, "de");
  await marketsLink(page, "de").click();
  const alert = page.getByRole("alert").filter({ hasText: text("de", "errors.load_title") });
  await expect(alert).toBeVisible();
  await expect(alert).toContainText(text("de", "errors.load_text"));
  await expect(page.locator("html")).toHaveAttribute("lang", "de");
  const reload = alert.getByRole("link", { name: text("de", "errors.load_reload") });
  await expect(reload).toHaveAttribute("href", "/market/main");
  await expectNoSeriousA11yViolations(page);
  await page.unroute(MARKETS_DATA);
  await reload.click();
  await expect(page).toHaveURL(/\/market\/main$/);
  await expect(page.getByRole("heading", { level: 1 })).toBeVisible();
  await expect(page.getByRole("alert").filter({ hasText: text("de", "errors.load_title") })).toHaveCount(0);
});

test("a chunk inside a page that fails (the exchange's interactive chart) keeps the page and its SVG chart", async ({ page }) => {
  await page.route(/\/kline-chart\.client-[A-Z0-9]+\.js$/, (route) => route.abort("failed"));
  await page.goto("/exchange/full-screen/BTC_USDT");
  // The interactive chart loads when the member reaches for it (decision 034).
  await page.getByTestId("kline").hover();
  await expect(page.getByTestId("kline").getByRole("status")).toHaveText(text("en", "exchange.chart_unavailable"));
  await expect(page.getByTestId("kline").locator("svg")).toBeVisible();
  await expect(alertOf(page)).toHaveCount(0);
  await expect(page.getByRole("heading", { name: text("en", "errors.load_title") })).toHaveCount(0);
});
