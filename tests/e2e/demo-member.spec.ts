import { expect, test, type Browser, type Page } from "@playwright/test";
import { adminHeaders, ENGINE_URL, expectNoSeriousA11yViolations, text } from "./support";

/**
 * Issue 8 §5: the shared demo member keeps visitors apart. Each visitor sees only their own
 * session and login, without addresses; the settings it cannot change are shown locked before
 * anything is submitted (no code is sent).
 */
const DEMO = "demo@meridian.example";

async function demoVisitor(browser: Browser, javaScriptEnabled: boolean): Promise<Page> {
  const page = await (await browser.newContext({ javaScriptEnabled })).newPage();
  await page.goto("/user/login");
  await page.getByRole("button", { name: text("en", "user.login.demo_submit") }).click();
  await expect(page).toHaveURL(/\/account\/center\/info$/);
  return page;
}

async function mailsTo(destination: string): Promise<number> {
  const res = await fetch(`${ENGINE_URL}/api/mjkj-web/dev/mailbox?destination=${encodeURIComponent(destination)}`, { headers: adminHeaders() });
  return ((await res.json()) as { data: unknown[] }).data.length;
}

for (const javaScriptEnabled of [true, false]) {
  test(`two visitors of the demo member see only their own session, JavaScript ${javaScriptEnabled ? "on" : "off"}`, async ({ browser }) => {
    const first = await demoVisitor(browser, javaScriptEnabled);
    const second = await demoVisitor(browser, javaScriptEnabled);
    for (const page of [first, second]) {
      await page.goto("/account/center/device-management");
      const rows = page.getByRole("table").getByRole("row");
      await expect(rows).toHaveCount(2); // the header and this visitor's own session
      await expect(rows.nth(1)).toContainText(text("en", "account.devices.this_device"));
      // Nothing to rename or delete, and no address.
      await expect(page.getByRole("button", { name: text("en", "account.devices.rename") })).toHaveCount(0);
      await expect(page.getByRole("button", { name: /Delete/ })).toHaveCount(0);
      await expect(rows.nth(1).getByRole("cell").nth(2)).toHaveText("—");

      await page.goto("/account/center/security");
      const log = page.getByRole("region", { name: text("en", "account.security.log_title") }).getByRole("row");
      await expect(log).toHaveCount(2);
      await expect(log.nth(1).getByRole("cell").nth(2)).toHaveText("—");
    }
    await first.context().close();
    await second.context().close();
  });
}

test("the demo member's settings are shown locked before anything is sent", async ({ browser }) => {
  const page = await demoVisitor(browser, true);
  await page.goto("/account/center/security");
  await expect(page.getByText(text("en", "account.demo.locked"), { exact: true }).first()).toBeVisible();
  await expect(page.getByRole("link", { name: /Google Authenticator: / })).toHaveCount(0);
  const mails = await mailsTo(DEMO);
  for (const path of [
    "/account/center/security/setting/google",
    "/account/center/security/setting/anti-code",
    "/account/center/login-pwd",
    "/account/center/trade-pwd",
    "/account/center/kyc",
    "/account/wallet/withdrawal",
  ]) {
    await page.goto(path);
    await expect(page.getByRole("heading", { level: 1, name: text("en", "account.demo.locked_title") }), path).toBeVisible();
    await expect(page.getByRole("button", { name: /Send code|Submit|Confirm|Bind/i }), path).toHaveCount(0);
  }
  await expectNoSeriousA11yViolations(page);
  expect(await mailsTo(DEMO)).toBe(mails);
  await page.getByRole("button", { name: text("en", "account.demo.register") }).click();
  await expect(page).toHaveURL(/\/user\/register$/);
  await page.context().close();
});

test("the demo member's margin account owes USDT on a fresh install, its interest charged by the hour", async ({ browser }) => {
  const page = await demoVisitor(browser, true);
  await page.goto("/account/wallet/margin");
  await expect(page.getByTestId("margin-debts")).toHaveText(/^50\d\.\d\d USDT$/);
  await expect(page.getByTestId("margin-level")).not.toHaveText("—");
});
