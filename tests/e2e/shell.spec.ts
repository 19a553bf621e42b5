import { expect, test, type Page } from "@playwright/test";
import { expectNoSeriousA11yViolations, hydrationErrors, LANGUAGES, text } from "./support";

test.describe("home and routing", () => {
  for (const javaScriptEnabled of [true, false]) {
    test(`home renders with JavaScript ${javaScriptEnabled ? "on" : "off"}`, async ({ browser }) => {
      const context = await browser.newContext({ javaScriptEnabled });
      const page = await context.newPage();
      const errors: string[] = [];
      page.on("pageerror", (e) => errors.push(e.message));
      await page.goto("/home/index");
      await expect(page.getByRole("heading", { level: 1 })).toHaveText("Trade crypto with confidence");
      await expect(page.getByText("15,000 BTC")).toBeVisible();
      await expect(page.getByText("130+")).toBeVisible();
      // The simulated liquidity trades the demo markets.
      await expect(page.getByRole("table")).toContainText("BTC/USDT");
      const header = page.getByRole("banner");
      await expect(header.getByRole("link", { name: "Log in" })).toBeVisible();
      await expect(header.getByRole("link", { name: "Register" })).toBeVisible();
      // With JavaScript the search box is a combobox with its panel (tests/e2e/search.spec.ts).
      await expect(header.getByRole(javaScriptEnabled ? "combobox" : "searchbox", { name: "Search coins and contracts" })).toBeVisible();
      await expect(page.getByRole("contentinfo")).toBeVisible();
      if (javaScriptEnabled) {
        // Hydrated: the menu's Escape handler only exists with JavaScript.
        await page.getByLabel(/^Language:/).click();
        await expect(page.getByRole("button", { name: "Deutsch" })).toBeVisible();
        await page.keyboard.press("Escape");
        await expect(page.getByRole("button", { name: "Deutsch" })).toBeHidden();
        await expect(page.getByLabel(/^Language:/)).toBeFocused();
      }
      expect(errors).toEqual([]);
      await context.close();
    });
  }

  for (const [from, js] of [
    ["/", true],
    ["/home", true],
    ["/nope", true],
    ["/nope/deeper?x=1", false],
    ["/", false],
  ] as const) {
    test(`${from} lands on /home/index (JavaScript ${js ? "on" : "off"})`, async ({ browser }) => {
      const context = await browser.newContext({ javaScriptEnabled: js });
      const page = await context.newPage();
      await page.goto(from);
      await expect(page).toHaveURL(/\/home\/index$/);
      await context.close();
    });
  }

  test("the footer shows on home and is hidden on /user/login", async ({ page }) => {
    await page.goto("/home/index");
    await expect(page.getByRole("contentinfo")).toBeVisible();
    await page.goto("/user/login");
    await expect(page.getByRole("banner")).toBeVisible();
    await expect(page.getByRole("contentinfo")).toHaveCount(0);
  });

  test("links only to pages that exist", async ({ page, request }) => {
    await page.goto("/home/index");
    const hrefs = await page.locator("header a[href^='/'], footer a[href^='/']").evaluateAll((links) => links.map((a) => a.getAttribute("href")!));
    expect(hrefs.length).toBeGreaterThan(3);
    for (const href of new Set(hrefs)) {
      const res = await request.get(href, { maxRedirects: 0 });
      // A page answers 200, or redirects to its own default child; never to the catch-all home.
      const location = res.headers()["location"] ?? "";
      expect(res.status() === 200 || location !== "/home/index" || href === "/home/index", href).toBe(true);
    }
  });
});

test.describe("language switch without JavaScript", () => {
  test.use({ javaScriptEnabled: false });

  for (const lang of LANGUAGES) {
    test(`switching to ${lang.code} changes the texts`, async ({ page }) => {
      await page.goto("/home/index");
      await page.locator("header summary[aria-label^='Language']").click();
      await page.getByRole("button", { name: lang.label, exact: true }).click();
      await expect(page).toHaveURL(/\/home\/index$/);
      await expect(page.locator("html")).toHaveAttribute("lang", lang.tag);
      const header = page.getByRole("banner");
      await expect(header.getByRole("link", { name: text(lang.code, "header.login"), exact: true })).toBeVisible();
      await expect(header.getByRole("link", { name: text(lang.code, "header.register"), exact: true })).toBeVisible();
      await expect(page.getByRole("heading", { name: text(lang.code, "home.markets.title") })).toBeVisible();
      await expect(page.getByRole("table")).toContainText("ETH/USDT");
      // The choice is kept in a cookie: a new visit stays in that language.
      await page.goto("/rate/index");
      await expect(page.locator("html")).toHaveAttribute("lang", lang.tag);
      await expect(page.getByRole("heading", { level: 1 })).toHaveText(text(lang.code, "rates.title"));
    });
  }

  test("the engine's language entries override the shipped texts", async ({ page, context }) => {
    await context.addCookies([{ name: "lang", value: Buffer.from(JSON.stringify("de")).toString("base64"), url: "http://127.0.0.1" }]);
    await page.goto("/home/index");
    // The campaign headline comes from the engine's lang_entry table, not the locale file.
    await expect(page.getByRole("heading", { level: 1 })).toHaveText("Krypto mit Vertrauen handeln");
  });
});

/** Follows the header's Markets link and waits for the markets page's header in that language's words. */
async function followMarketsLink(page: Page, lang: string) {
  await page
    .getByRole("banner")
    .getByRole("link", { name: text(lang, "nav.markets"), exact: true })
    .first()
    .click();
  await expect(page).toHaveURL(/\/market\/main$/);
  await expect(page.getByRole("banner").getByRole("link", { name: text(lang, "header.login"), exact: true })).toBeVisible();
}

test("language switch with JavaScript reloads the page in the new language", async ({ page }) => {
  await page.goto("/rate/index");
  await page.getByLabel(/^Language:/).click();
  await page.getByRole("button", { name: "日本語" }).click();
  await expect(page.locator("html")).toHaveAttribute("lang", "ja");
  await expect(page).toHaveURL(/\/rate\/index$/);
  await expect(page.getByRole("heading", { level: 1 })).toHaveText(text("jp", "rates.title"));
  // The next page is drawn in the browser, with the texts of the new language.
  await followMarketsLink(page, "jp");
});

test.describe("a language's texts travel apart from the pages (decision 036)", () => {
  test("a page's HTML carries only their version, and every page of the language points at the one address", async ({ page }) => {
    const fetched: string[] = [];
    page.on("response", (response) => {
      if (new URL(response.url()).pathname.startsWith("/texts/")) fetched.push(new URL(response.url()).pathname);
    });
    const answer = await page.goto("/rate/index");
    const html = await answer!.text();
    expect(html).not.toContain(JSON.stringify(text("en", "rates.title")));
    expect(html).toMatch(/<script defer="" nonce="[^"]+" src="\/texts\/en\/[A-Za-z0-9_-]{16}\.js"/);
    await expect(page.getByRole("heading", { level: 1 })).toHaveText(text("en", "rates.title"));
    await page.goto("/home/index");
    await expect(page.getByRole("heading", { name: text("en", "home.markets.title") })).toBeVisible();
    await page.goto("/market/main");
    await expect(page.getByRole("banner").getByRole("link", { name: text("en", "header.login"), exact: true })).toBeVisible();
    expect(new Set(fetched).size).toBe(1);
  });

  test("a page whose texts script did not arrive fetches them before it comes alive, and keeps its words", async ({ page }) => {
    await page.route("**/texts/**/*.js", (route) => route.abort());
    const documents: string[] = [];
    const json: string[] = [];
    page.on("request", (request) => {
      if (request.resourceType() === "document") documents.push(new URL(request.url()).pathname);
    });
    page.on("requestfinished", (request) => {
      if (/^\/texts\/en\/[^/]+\.json$/.test(new URL(request.url()).pathname)) json.push(request.url());
    });
    const hydration = hydrationErrors(page);
    await page.goto("/rate/index");
    await expect(page.getByRole("heading", { level: 1 })).toHaveText(text("en", "rates.title"));
    await page.waitForFunction(() => "__remixRouter" in window);
    // Drawn in the browser (no new document): the words, not their keys.
    await followMarketsLink(page, "en");
    expect(hydration, "the browser drew what the server drew").toEqual([]);
    expect(documents).toEqual(["/rate/index"]);
    // The words came from the JSON, fetched once (the script never ran).
    expect(json).toHaveLength(1);
    expect(await page.evaluate(() => window.__texts?.lang)).toBe("en");
  });

  test("a page that holds older texts than the server's (an operator changed one) fetches the current ones", async ({ page }) => {
    // The browser's copy is an older version with another heading, as a cached script would be.
    await page.route("**/texts/en/*.js", async (route) => {
      const current = JSON.parse((await (await route.fetch()).text()).replace(/^window\.__texts=/, "").replace(/;\s*$/, "")) as {
        messages: { rates: { title: string } };
      };
      current.messages.rates.title = "An older title";
      await route.fulfill({ contentType: "text/javascript", body: `window.__texts=${JSON.stringify({ ...current, version: "older0000000000" })};` });
    });
    const json = page.waitForRequest((request) => /\/texts\/en\/[A-Za-z0-9_-]{16}\.json$/.test(new URL(request.url()).pathname));
    await page.goto("/rate/index");
    await json;
    await expect(page.getByRole("heading", { level: 1 })).toHaveText(text("en", "rates.title"));
  });
});

test.describe("currency and theme without JavaScript", () => {
  test.use({ javaScriptEnabled: false });

  test("the display currency switch persists", async ({ page }) => {
    await page.goto("/rate/index");
    await expect(page.locator("header summary[aria-label^='Display currency']")).toHaveAttribute("aria-label", /USD \$/);
    await page.locator("header summary[aria-label^='Display currency']").click();
    await page.getByRole("banner").getByRole("button", { name: /EUR/ }).click();
    await expect(page).toHaveURL(/\/rate\/index$/);
    await expect(page.locator("header summary[aria-label^='Display currency']")).toHaveAttribute("aria-label", /EUR €/);
    await expect(page.getByRole("row", { name: /EUR/ })).toContainText("Current display currency");
    await page.goto("/home/index");
    await expect(page.getByRole("columnheader", { name: "Last price (EUR)" })).toBeVisible();
    // From the rates page's own form too.
    await page.goto("/rate/index");
    await page.getByRole("button", { name: "Show prices in JPY" }).click();
    await expect(page.locator("header summary[aria-label^='Display currency']")).toHaveAttribute("aria-label", /JPY JP¥/);
  });

  test("the theme switch persists and recolours the page", async ({ page }) => {
    await page.goto("/home/index");
    const background = () => page.evaluate(() => getComputedStyle(document.body).backgroundColor);
    expect(await background()).toBe("rgb(11, 14, 17)");
    await page.getByRole("button", { name: "Switch to day theme" }).click();
    await expect(page.getByRole("button", { name: "Switch to night theme" })).toBeVisible();
    expect(await background()).toBe("rgb(255, 255, 255)");
    await page.goto("/aboutus");
    expect(await background()).toBe("rgb(255, 255, 255)");
    await page.getByRole("button", { name: "Switch to night theme" }).click();
    expect(await background()).toBe("rgb(11, 14, 17)");
  });

  test("a forged preference is refused with a message and changes nothing", async ({ page, request }) => {
    const res = await request.post("/preferences", { form: { intent: "currency", value: "xyz", redirectTo: "//evil.example" }, maxRedirects: 0 });
    expect(res.status()).toBe(302);
    expect(res.headers()["location"]).toBe("/home/index");
    const currencyCookie = res.headersArray().find((h) => h.name.toLowerCase() === "set-cookie" && h.value.startsWith("currency="));
    expect(currencyCookie).toBeUndefined();
    await page.goto("/home/index");
    await expect(page.locator("header summary[aria-label^='Display currency']")).toHaveAttribute("aria-label", /USD/);
  });
});

test("an invite code in any URL is kept in the session", async ({ page, context }) => {
  await page.goto("/aboutus");
  expect((await context.cookies()).find((c) => c.name === "__session")).toBeUndefined();
  await page.goto("/aboutus?invite_code=MERID42");
  const session = (await context.cookies()).find((c) => c.name === "__session");
  expect(session).toBeDefined();
  expect(session!.httpOnly).toBe(true);
  expect(session!.sameSite).toBe("Lax");
});

test.describe("accessibility", () => {
  for (const [path, theme] of [
    ["/home/index", "theme-night"],
    ["/home/index", "theme-day"],
    ["/rate/index", "theme-night"],
    ["/aboutus", "theme-day"],
    ["/user/login", "theme-night"],
  ] as const) {
    test(`axe finds no serious violations on ${path} (${theme})`, async ({ page, context }) => {
      await context.addCookies([{ name: "theme", value: Buffer.from(JSON.stringify(theme)).toString("base64"), url: "http://127.0.0.1" }]);
      await page.goto(path);
      await expectNoSeriousA11yViolations(page);
    });
  }

  test("Tab reaches every header control in order, each with a visible focus ring", async ({ page }) => {
    await page.goto("/home/index");
    const expected: Array<RegExp | string> = ["Skip to main content", "Meridian Exchange home"];
    const navLinks = await page.locator("header nav > ul > li > a").allTextContents();
    expected.push(...navLinks.map((t) => t.replace("▾", "").trim()));
    expected.push("Search coins and contracts", "Log in", "Register", /^Language:/, /^Display currency:/, /Switch to (day|night) theme/);

    for (const name of expected) {
      await page.keyboard.press("Tab");
      const focused = page.locator(":focus");
      const label = await focused.evaluate((el) => {
        const aria = el.getAttribute("aria-label");
        if (aria) return aria;
        if (el.id) {
          const forLabel = document.querySelector(`label[for="${el.id}"]`);
          if (forLabel) return forLabel.textContent ?? "";
        }
        return (el.textContent ?? "").replace("▾", "").trim();
      });
      if (typeof name === "string") expect(label).toBe(name);
      else expect(label).toMatch(name);
      const ring = await focused.evaluate((el) => {
        const style = getComputedStyle(el);
        return { style: style.outlineStyle, width: parseFloat(style.outlineWidth) };
      });
      expect(ring.style, `focus ring on ${label}`).not.toBe("none");
      expect(ring.width, `focus ring on ${label}`).toBeGreaterThanOrEqual(2);
      // Moving through a nav item's sub-menu: skip its children (they follow in the Tab order).
      const children = await focused.evaluate((el) => (el.parentElement?.matches("nav li") ? el.parentElement.querySelectorAll(":scope > ul a").length : 0));
      for (let i = 0; i < children; i++) await page.keyboard.press("Tab");
    }
  });
});
