import { expect, test } from "@playwright/test";
import { createOperator, opsLogIn } from "./ops-support";
import { createMember } from "./spot-support";
import { expectNoSeriousA11yViolations, hydrationErrors } from "./support";

/**
 * Issue 29: the console's deposits page as a finance operator uses it, with and without
 * JavaScript: the chain deposits listed and filtered, a hand credit refused for an amount it
 * cannot read, then made (a reference credits once: app/routes/ops+/deposits.test.ts).
 */
for (const javaScriptEnabled of [true, false]) {
  test.describe(`operator console deposits (JavaScript ${javaScriptEnabled ? "on" : "off"})`, () => {
    test("a finance operator filters the deposits and credits one by hand", async ({ browser }) => {
      test.setTimeout(120_000);
      const tag = javaScriptEnabled ? "ops-deposits-js" : "ops-deposits-nojs";
      const member = await createMember(tag);
      const operator = await createOperator("finance", `e2e-${tag}`);
      const context = await browser.newContext({ javaScriptEnabled, viewport: { width: 1440, height: 900 } });
      const page = await context.newPage();
      const errors = hydrationErrors(page);
      await opsLogIn(page, operator);
      await page.getByRole("link", { name: "Deposits", exact: true }).click();
      await expect(page.getByRole("heading", { name: "Deposits", level: 1 })).toBeVisible();
      await page.getByLabel("State").selectOption("credited");
      await page.getByRole("button", { name: "Apply" }).click();
      await expect(page).toHaveURL(/state=credited/);
      if (javaScriptEnabled) await expectNoSeriousA11yViolations(page);

      const credit = page.getByRole("form", { name: "Credit a deposit by hand" });
      await credit.getByLabel("UID").fill(member.uid);
      await credit.getByLabel("Coin").selectOption("USDT");
      await credit.getByLabel("Amount").fill("12..5");
      await credit.getByRole("button", { name: "Credit" }).click();
      await expect(credit.getByLabel("Amount")).toHaveAttribute("aria-invalid", "true");
      await expect(credit.getByLabel("Amount")).toHaveValue("12..5");

      await credit.getByLabel("Amount").fill("12.5");
      await credit.getByRole("button", { name: "Credit" }).click();
      await expect(page.getByText(`12.5 USDT credited to member ${member.uid}.`)).toBeVisible();
      await page.setViewportSize({ width: 768, height: 1000 });
      expect(await page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth)).toBe(true);
      if (javaScriptEnabled) await expectNoSeriousA11yViolations(page);
      expect(errors).toEqual([]);
      await context.close();
    });
  });
}
