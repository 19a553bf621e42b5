import AxeBuilder from "@axe-core/playwright";
import { expect, test, type Page } from "@playwright/test";
import { createMember, deposit, logIn } from "./spot-support";

/**
 * Issue 8 §2: every page at a phone, a tablet and a desktop width: no horizontal scroll, the
 * header's controls neither overlap nor leave the screen, and axe (WCAG 2.2 AA, target size
 * included) finds nothing serious. The narrow header folds into a menu that opens without
 * JavaScript.
 */
const WIDTHS = [390, 768, 1440] as const;

const PUBLIC_PAGES = [
  "/home/index",
  "/market/main",
  "/exchange/full-screen/BTC_USDT",
  "/rate/index",
  "/aboutus",
  "/user/login",
  "/user/register",
  "/user/forgot-password",
];
const MEMBER_PAGES = [
  "/account/center/info",
  "/account/center/security",
  "/account/center/security/setting/login-pwd",
  "/account/center/security/setting/trade-pwd",
  "/account/center/security/setting/email",
  "/account/center/security/setting/phone",
  "/account/center/security/setting/google",
  "/account/center/security/setting/anti-code",
  "/account/center/kyc",
  "/account/center/device-management",
  "/account/entrust/spot",
  "/account/entrust/spot?tab=history",
  "/exchange/full-screen/BTC_USDT",
];

const PAGE_BUDGET_MS = 10_000;

/** Boxes of the header's visible controls, and any two that overlap or leave the viewport. */
async function headerProblems(page: Page): Promise<string[]> {
  return page.evaluate(() => {
    const problems: string[] = [];
    const width = document.documentElement.clientWidth;
    const controls = [...document.querySelectorAll("header a, header button, header input, header summary")]
      .map((el) => ({ el, box: el.getBoundingClientRect() }))
      // What a member can see: not in a closed menu, a hidden sub-menu or the folded panel.
      .filter(({ el, box }) => box.width > 0 && box.height > 0 && el.checkVisibility({ visibilityProperty: true, opacityProperty: true }));
    const name = (el: Element) => (el.getAttribute("aria-label") ?? el.textContent ?? el.tagName).trim().slice(0, 30) || el.tagName;
    for (const { el, box } of controls) {
      if (box.left < 0 || box.right > width + 0.5)
        problems.push(`${name(el)} leaves the screen (${Math.round(box.left)}–${Math.round(box.right)} of ${width})`);
    }
    for (let i = 0; i < controls.length; i++) {
      for (let j = i + 1; j < controls.length; j++) {
        const a = controls[i]!;
        const b = controls[j]!;
        if (a.el.contains(b.el) || b.el.contains(a.el)) continue;
        const overlap =
          Math.min(a.box.right, b.box.right) - Math.max(a.box.left, b.box.left) > 1 &&
          Math.min(a.box.bottom, b.box.bottom) - Math.max(a.box.top, b.box.top) > 1;
        if (overlap) problems.push(`${name(a.el)} overlaps ${name(b.el)}`);
      }
    }
    return problems;
  });
}

async function checkPage(page: Page, path: string, width: number) {
  await page.setViewportSize({ width, height: 900 });
  const res = await page.goto(path);
  expect(res?.status(), path).toBeLessThan(400);
  const [scrollWidth, clientWidth] = await page.evaluate(() => [document.documentElement.scrollWidth, document.documentElement.clientWidth]);
  expect(scrollWidth, `${path} at ${width} px scrolls sideways`).toBeLessThanOrEqual(clientWidth);
  expect(await headerProblems(page), `${path} at ${width} px`).toEqual([]);
  const results = await new AxeBuilder({ page }).withTags(["wcag2a", "wcag2aa", "wcag21a", "wcag21aa", "wcag22aa"]).analyze();
  const serious = results.violations.filter((v) => v.impact === "serious" || v.impact === "critical");
  expect(
    serious.map((v) => `${v.id}: ${v.help} (${v.nodes.map((n) => n.target.join(" ")).join(", ")})`),
    `${path} at ${width} px: axe serious/critical violations`,
  ).toEqual([]);
}

for (const width of WIDTHS) {
  test(`public pages at ${width} px`, async ({ page }) => {
    // axe on a full page takes seconds on two busy cores: budget per page, not per test.
    test.setTimeout(PAGE_BUDGET_MS * PUBLIC_PAGES.length);
    for (const path of PUBLIC_PAGES) await checkPage(page, path, width);
  });

  test(`member pages at ${width} px`, async ({ page }) => {
    test.setTimeout(PAGE_BUDGET_MS * (MEMBER_PAGES.length + 1));
    const member = await createMember(`layout-${width}`);
    await deposit(member.uid, "USDT", "1000");
    await logIn(page, member.email, member.password);
    for (const path of MEMBER_PAGES) await checkPage(page, path, width);
  });
}

for (const javaScriptEnabled of [true, false]) {
  test.describe(`the narrow header's menu, JavaScript ${javaScriptEnabled ? "on" : "off"}`, () => {
    test.use({ javaScriptEnabled, viewport: { width: 390, height: 800 } });

    test("opens a panel with the navigation, search, log in, register, language, currency and theme", async ({ page }) => {
      await page.goto("/home/index");
      const header = page.getByRole("banner");
      // Folded: only the logo and the menu button show.
      await expect(header.getByRole("link", { name: "Log in", exact: true })).toBeHidden();
      const menu = header.getByText("Menu", { exact: true });
      await menu.click();
      for (const name of ["Markets", "Log in", "Register"]) await expect(header.getByRole("link", { name, exact: true })).toBeVisible();
      await expect(header.getByRole(javaScriptEnabled ? "combobox" : "searchbox", { name: "Search coins and contracts" })).toBeVisible();
      await expect(header.getByRole("button", { name: /Switch to (day|night) theme/ })).toBeVisible();
      // The language menu opens inside the panel, on screen, and switches the language.
      await header.getByLabel("Language: English").click();
      const deutsch = header.getByRole("button", { name: "Deutsch", exact: true });
      // With every product in the navigation the panel is taller than the screen: the list is below
      // the fold, reached by scrolling, and then wholly on screen (never clipped at a side).
      await deutsch.scrollIntoViewIfNeeded();
      await expect(deutsch).toBeInViewport({ ratio: 1 });
      await deutsch.click();
      await expect(page.locator("html")).toHaveAttribute("lang", "de");
      await page.getByRole("banner").getByText("Menü", { exact: true }).click();
      await page.getByRole("banner").getByRole("link", { name: "Anmelden", exact: true }).click();
      await expect(page).toHaveURL(/\/user\/login/);
      // A new page starts with the menu folded.
      await expect(page.getByRole("banner").getByRole("link", { name: "Anmelden", exact: true })).toBeHidden();
      await page.context().clearCookies();
    });
  });
}

test("keyboard: the narrow menu opens with Enter, closes with Escape and gives focus back", async ({ page }) => {
  await page.setViewportSize({ width: 390, height: 800 });
  await page.goto("/home/index");
  const button = page.getByRole("banner").locator("summary", { hasText: "Menu" });
  await button.focus();
  await page.keyboard.press("Enter");
  await expect(page.getByRole("banner").getByRole("link", { name: "Markets", exact: true })).toBeVisible();
  await page.keyboard.press("Tab");
  await page.keyboard.press("Escape");
  await expect(page.getByRole("banner").getByRole("link", { name: "Markets", exact: true })).toBeHidden();
  await expect(button).toBeFocused();
});
