import { expect, test } from "@playwright/test";
import { createOperator, opsLogIn } from "./ops-support";
import { createMember } from "./spot-support";
import { expectNoSeriousA11yViolations, hydrationErrors } from "./support";

/**
 * Issue 29: the console's outbox as an admin reads it, with and without JavaScript: a member's
 * registration mail found by its address, its text opened under its subject (this install sends
 * nothing, so texts are shown), and a state that cannot be one said so.
 */
for (const javaScriptEnabled of [true, false]) {
  test.describe(`operator console outbox (JavaScript ${javaScriptEnabled ? "on" : "off"})`, () => {
    test("an admin finds a member's mail by address and reads it", async ({ browser }) => {
      const tag = javaScriptEnabled ? "ops-outbox-js" : "ops-outbox-nojs";
      const member = await createMember(tag);
      const operator = await createOperator("admin", `e2e-${tag}`);
      const context = await browser.newContext({ javaScriptEnabled, viewport: { width: 1440, height: 900 } });
      const page = await context.newPage();
      const errors = hydrationErrors(page);
      await opsLogIn(page, operator);
      await page.getByRole("link", { name: "Outbox", exact: true }).click();
      await expect(page.getByRole("heading", { name: "Outbox", level: 1 })).toBeVisible();
      await page.getByLabel("E-mail address or phone number").fill(member.email);
      await page.getByRole("button", { name: "Apply" }).click();
      const row = page.getByRole("row").filter({ hasText: member.email });
      await expect(row).toHaveCount(1);
      await row.locator("summary").click();
      await expect(row.locator("pre")).toContainText(/\d{6}/);
      if (javaScriptEnabled) await expectNoSeriousA11yViolations(page);
      await page.goto("/ops/outbox?state=lost");
      // The field says what is wrong with it (tied to it), and the alert why no rows are shown.
      await expect(page.getByLabel("State")).toHaveAttribute("aria-invalid", "true");
      await expect(page.getByLabel("State")).toHaveAccessibleDescription(/The request was not valid/);
      await expect(page.getByRole("alert")).toContainText("Check the filter");
      expect(errors).toEqual([]);
      await context.close();
    });
  });
}
