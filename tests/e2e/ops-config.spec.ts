import { expect, test } from "@playwright/test";
import { createOperator, opsLogIn } from "./ops-support";
import { expectNoSeriousA11yViolations, hydrationErrors } from "./support";

/**
 * Issue 29, decision 044: the console's configuration page as a markets operator uses it, with and
 * without JavaScript: a display currency's rate refused with its message and then saved, a footer
 * link added that the site's footer then shows, and removed again, at 1440 px and at 768 px. Each
 * run has rows of its own (the runs go side by side).
 */
for (const javaScriptEnabled of [true, false]) {
  test.describe(`operator console configuration (JavaScript ${javaScriptEnabled ? "on" : "off"})`, () => {
    test("a markets operator changes a display currency's rate and adds a footer link the site shows, then removes it", async ({ browser }) => {
      test.setTimeout(120_000);
      const tag = javaScriptEnabled ? "js" : "nojs";
      const currency = javaScriptEnabled ? "HKD" : "CNY";
      const linkPath = `https://status.example/${tag}`;
      const operator = await createOperator("markets", `e2e-config-${tag}`);
      const context = await browser.newContext({ javaScriptEnabled, viewport: { width: 1440, height: 900 } });
      const page = await context.newPage();
      const errors = hydrationErrors(page);
      await opsLogIn(page, operator);
      await page.getByRole("link", { name: "Configuration" }).click();
      await expect(page.getByRole("heading", { name: "Site configuration", level: 1 })).toBeVisible();
      await expect(page.getByRole("link", { name: "Navigation" })).toHaveAttribute("aria-current", "page");
      if (javaScriptEnabled) await expectNoSeriousA11yViolations(page);

      // A rate that is no number: refused beside the field, with what was typed kept.
      const tables = page.getByRole("navigation", { name: "Configuration tables" });
      await tables.getByRole("link", { name: "Display currencies" }).click();
      await expect(page.getByRole("heading", { name: "Display currencies", level: 2 })).toBeVisible();
      const row = page.getByRole("row").filter({ has: page.getByRole("cell", { name: currency, exact: true }) });
      await expect(row).toHaveCount(1);
      await row.getByRole("link", { name: "Edit" }).click();
      const rate = page.getByLabel("Units per US dollar", { exact: true });
      await rate.fill("seven");
      await page.getByRole("button", { name: "Save" }).click();
      await expect(rate).toHaveAttribute("aria-invalid", "true");
      await expect(rate).toHaveAccessibleDescription(/Enter a rate above 0 with at most 12 decimals, such as 0\.92\./);
      await expect(rate).toHaveValue("seven");
      if (javaScriptEnabled) await expectNoSeriousA11yViolations(page);

      // Saved by keyboard: the toast, and the table shows the new rate.
      // A rate of this run's own (a retry on the same exchange saves a new one, not the same again).
      const newRate = `7.${String(Date.now() % 100_000).padStart(5, "0")}1`;
      await rate.fill(newRate);
      await rate.press("Enter");
      await expect(page.getByText("Saved: every page shows it within seconds.")).toBeVisible();
      await expect(row.getByRole("cell", { name: newRate, exact: true })).toBeVisible();

      // A footer link: added, shown in the site's footer within seconds, then removed.
      await tables.getByRole("link", { name: "Footer links" }).click();
      await expect(page.getByRole("heading", { name: "Footer links", level: 2 })).toBeVisible();
      await expect(tables.getByRole("link", { name: "Footer links" })).toHaveAttribute("aria-current", "page");
      await page.getByRole("link", { name: "Add a row" }).click();
      await page.getByLabel("Group", { exact: true }).fill("about");
      await page.getByLabel("Code", { exact: true }).fill(`status_${tag}`);
      await page.getByLabel("Page", { exact: true }).fill(linkPath);
      await page.getByLabel("Order", { exact: true }).fill("99");
      await page.getByRole("button", { name: "Save" }).click();
      await expect(page.getByText("Saved: every page shows it within seconds.")).toBeVisible();
      const site = await context.newPage();
      await expect(async () => {
        await site.goto("/");
        await expect(site.getByRole("contentinfo").locator(`a[href="${linkPath}"]`)).toHaveCount(1, { timeout: 1_000 });
      }).toPass({ timeout: 20_000 });
      const link = page.getByRole("row").filter({ hasText: linkPath });
      await link.getByRole("link", { name: "Edit" }).click();
      await page.getByRole("button", { name: "Remove this row" }).click();
      await expect(page.getByText("Removed: every page shows it within seconds.")).toBeVisible();
      await expect(page.getByRole("row").filter({ hasText: linkPath })).toHaveCount(0);

      // At 768 px the page does not scroll sideways, and stays accessible.
      await page.setViewportSize({ width: 768, height: 1000 });
      expect(await page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth)).toBe(true);
      if (javaScriptEnabled) await expectNoSeriousA11yViolations(page);
      expect(errors).toEqual([]);
      await context.close();
    });
  });
}
