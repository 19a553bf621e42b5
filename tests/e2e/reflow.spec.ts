import { expect, test, type Page } from "@playwright/test";
import { createMember, deposit, logIn } from "./spot-support";
import { ENGINE_URL, expectNoSeriousA11yViolations, text } from "./support";

/**
 * WCAG 1.4.10 (reflow): every page of the product at a phone (390 px) and a tablet (768 px) width
 * is never wider than the window. A table wider than a phone becomes cards or scrolls inside its
 * own labelled frame, never the page. A failure names the page and the widest element that
 * leaves the window. With JavaScript on at both widths, and off at 390 px (the pages work
 * without it).
 */
const PUBLIC_PAGES = [
  "/home/index",
  "/market/main",
  "/exchange/full-screen/BTC_USDT",
  "/rate/index",
  "/aboutus",
  "/search?q=BTC",
  "/user/login",
  "/user/register",
  "/user/forgot-password",
];
const MEMBER_PAGES = [
  "/account/center/info",
  "/account/center/notifications",
  "/account/center/security",
  "/account/center/security/setting/login-pwd",
  "/account/center/security/setting/trade-pwd",
  "/account/center/security/setting/email",
  "/account/center/security/setting/phone",
  "/account/center/security/setting/google",
  "/account/center/security/setting/anti-code",
  "/account/center/login-pwd",
  "/account/center/trade-pwd",
  "/account/center/kyc",
  "/account/center/device-management",
  "/account/entrust/spot",
  "/account/entrust/spot?tab=history",
  "/account/entrust/spot?tab=trades",
  "/account/wallet/assets",
  "/account/wallet/assets?t=4",
  "/account/wallet/margin",
  "/account/wallet/transfer",
  "/account/wallet/deposit",
  "/account/wallet/withdrawal",
  "/account/wallet/history-deposit",
  "/account/wallet/history-withdrawal",
  "/account/wallet/address",
  "/account/wallet/bills",
  "/exchange/full-screen/BTC_USDT",
  "/market/main",
];

/** How much wider than the window the document is, and the widest element that leaves the window. */
async function overflow(page: Page): Promise<{ scrollWidth: number; innerWidth: number; culprit: string | null }> {
  return page.evaluate(() => {
    const innerWidth = window.innerWidth;
    const scrollWidth = document.documentElement.scrollWidth;
    const describe = (el: Element) => {
      const id = el.id ? `#${el.id}` : "";
      const testId = el.getAttribute("data-testid");
      const cls = typeof el.className === "string" && el.className ? `.${el.className.trim().split(/\s+/).slice(0, 2).join(".")}` : "";
      const text = (el.getAttribute("aria-label") ?? el.textContent ?? "").replace(/\s+/g, " ").trim().slice(0, 40);
      return `<${el.tagName.toLowerCase()}${id}${cls}${testId ? ` data-testid=${testId}` : ""}> "${text}"`;
    };
    let culprit: { el: Element; right: number; width: number } | null = null;
    if (scrollWidth > innerWidth + 1) {
      for (const el of document.body.querySelectorAll("*")) {
        const box = el.getBoundingClientRect();
        if (box.width === 0 || box.right + window.scrollX <= innerWidth + 1) continue;
        // The outermost of the widest: an element whose parent is as wide explains less.
        if (!culprit || box.width > culprit.width) culprit = { el, right: box.right + window.scrollX, width: box.width };
      }
    }
    return {
      scrollWidth,
      innerWidth,
      culprit: culprit ? `${describe(culprit.el)} ${Math.round(culprit.width)} px wide, right edge at ${Math.round(culprit.right)} px` : null,
    };
  });
}

async function visit(page: Page, paths: readonly string[], width: number): Promise<string[]> {
  await page.setViewportSize({ width, height: 900 });
  const problems: string[] = [];
  for (const path of paths) {
    const res = await page.goto(path);
    expect(res?.status(), path).toBeLessThan(400);
    const { scrollWidth, innerWidth, culprit } = await overflow(page);
    if (scrollWidth > innerWidth + 1) problems.push(`${path} at ${width} px is ${scrollWidth} px wide (window ${innerWidth}): ${culprit}`);
  }
  return problems;
}

/**
 * A member with a balance (coin tables and bills have rows), a second device (a row with Delete)
 * and the session of this browser.
 */
async function logInMember(page: Page, tag: string) {
  const member = await createMember(tag);
  await deposit(member.uid, "USDT", "1000");
  await deposit(member.uid, "BTC", "0.5");
  const other = await fetch(`${ENGINE_URL}/api/blade-auth/oauth/token`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ grant_type: "password", accountType: "email", email: member.email, password: member.password, deviceId: `reflow-${member.uid}` }),
  });
  expect(other.ok).toBe(true);
  await logIn(page, member.email, member.password);
}

const PAGE_BUDGET_MS = 4_000;

for (const javaScriptEnabled of [true, false]) {
  const widths = javaScriptEnabled ? [390, 768] : [390];
  test.describe(`reflow, JavaScript ${javaScriptEnabled ? "on" : "off"}`, () => {
    test.use({ javaScriptEnabled });

    for (const width of widths) {
      test(`public pages at ${width} px are no wider than the window`, async ({ page }) => {
        test.setTimeout(20_000 + PAGE_BUDGET_MS * PUBLIC_PAGES.length);
        expect(await visit(page, PUBLIC_PAGES, width)).toEqual([]);
      });

      test(`member pages at ${width} px are no wider than the window`, async ({ page }) => {
        test.setTimeout(30_000 + PAGE_BUDGET_MS * MEMBER_PAGES.length);
        await logInMember(page, `reflow-${width}-${javaScriptEnabled ? "js" : "nojs"}`);
        expect(await visit(page, MEMBER_PAGES, width)).toEqual([]);
      });
    }
  });
}

for (const javaScriptEnabled of [true, false]) {
  test.describe(`a phone, JavaScript ${javaScriptEnabled ? "on" : "off"}`, () => {
    test.use({ javaScriptEnabled, viewport: { width: 390, height: 800 } });

    test("the wallet and account menus fold above the page; rows keep their values and buttons in sight", async ({ page }) => {
      test.setTimeout(60_000);
      await logInMember(page, `reflow-menu-${javaScriptEnabled ? "js" : "nojs"}`);
      await page.goto("/account/wallet/assets");
      const walletMenu = page.getByRole("navigation", { name: text("en", "wallet.menu_label") });
      // Folded: the page comes first, the menu's button names the current page.
      const toggle = page.locator("summary", { hasText: "Coin account" });
      await expect(toggle).toBeVisible();
      await expect(walletMenu).toBeHidden();
      await expect(page.getByRole("heading", { name: "Assets", level: 1 })).toBeInViewport();
      // A coin's balance, what is in orders and its value are on screen, each after its label.
      const usdt = page.getByTestId("coins-spot").getByRole("row").filter({ hasText: "USDT" });
      for (const cell of await usdt.getByRole("cell").all()) {
        const box = (await cell.boundingBox())!;
        expect(box.x + box.width, "a coin's cell ends inside the window").toBeLessThanOrEqual(390);
      }
      // Each value after its column's name (drawn from `data-label`).
      await expect(usdt.getByRole("cell", { name: "1,000.00000000" })).toHaveAttribute("data-label", "Available");
      if (javaScriptEnabled) await expectNoSeriousA11yViolations(page); // axe runs as a page script

      // Opened by keyboard; a page opened from it starts with the menu folded again.
      await toggle.focus();
      await page.keyboard.press("Enter");
      await expect(walletMenu).toBeVisible();
      if (javaScriptEnabled) await expectNoSeriousA11yViolations(page); // axe runs as a page script
      await walletMenu.getByRole("link", { name: "Bills" }).click();
      await expect(page).toHaveURL(/\/account\/wallet\/bills$/);
      await expect(page.locator("summary", { hasText: "Bills" })).toBeVisible();
      await expect(walletMenu).toBeHidden();
      const download = page.getByRole("link", { name: "Download CSV" });
      await expect(download).toBeInViewport({ ratio: 1 });
      // The bills scroll inside their own named frame, which a keyboard can reach.
      const frame = page.getByTestId("bills").locator("xpath=..");
      await expect(frame).toHaveAttribute("role", "region");
      await expect(frame).toHaveAttribute("tabindex", "0");

      // The account centre's menu folds the same way; a device's Rename and Delete are on screen.
      await page.goto("/account/center/device-management");
      await expect(page.getByRole("navigation", { name: text("en", "account.menu_label") })).toBeHidden();
      await expect(page.locator("summary", { hasText: "Devices" })).toBeVisible();
      await expect(page.getByRole("button", { name: "Rename" }).first()).toBeInViewport({ ratio: 1 });
      await expect(page.getByRole("button", { name: /^Delete/ }).first()).toBeInViewport({ ratio: 1 });
      await expect(page.getByRole("cell", { name: "127.0.0.1" }).first()).toBeInViewport({ ratio: 1 });
      if (javaScriptEnabled) await expectNoSeriousA11yViolations(page); // axe runs as a page script
    });
  });
}

test("on a wide screen the side menu stands beside the page, with no menu button", async ({ page }) => {
  await logInMember(page, "reflow-wide");
  await page.setViewportSize({ width: 1280, height: 800 });
  await page.goto("/account/wallet/assets");
  await expect(page.getByRole("navigation", { name: text("en", "wallet.menu_label") }).getByRole("link", { name: "Bills" })).toBeVisible();
  await expect(page.locator("summary", { hasText: "Coin account" })).toBeHidden();
});
