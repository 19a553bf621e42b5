import { expect, test, type Page } from "@playwright/test";
import { createMember, deposit, logIn } from "./spot-support";
import { expectNoSeriousA11yViolations } from "./support";

/**
 * New-coin and ETF subscriptions (issue 32, decision 053): a member subscribes to the open ETF round,
 * a refusal shows the engine's words, the record is "In purchase"; the countdown is there; the
 * default variant offers no return application; with and without JavaScript.
 */

async function subscribe(page: Page, quantity: string) {
  const selected = page.getByTestId("subscription-selected");
  await selected.getByLabel("Quantity (TOP5)").fill(quantity);
  await selected.getByRole("button", { name: "Subscribe" }).click();
}

for (const javaScriptEnabled of [true, false]) {
  test.describe(`subscriptions, JavaScript ${javaScriptEnabled ? "on" : "off"}`, () => {
    test.use({ javaScriptEnabled });

    test("a member subscribes to the open ETF round, is refused below its minimum, and finds the record in purchase", async ({ page }) => {
      test.setTimeout(120_000);
      const member = await createMember(javaScriptEnabled ? "subs-js" : "subs-nojs");
      await deposit(member.uid, "USDT", "1000", "funding");
      await logIn(page, member.email, member.password, "/etf");
      await expect(page.getByRole("heading", { name: "ETF subscriptions", level: 1 })).toBeVisible();
      const selected = page.getByTestId("subscription-selected");
      await expect(selected.getByRole("heading", { level: 2 })).toContainText("TOP5-R1");
      const timer = page.getByRole("timer");
      await expect(timer).toHaveText(/^Closes in \d+ d \d+ h \d+ min \d+ s$/);
      if (javaScriptEnabled) {
        // With JavaScript the countdown ticks.
        const first = await timer.textContent();
        await expect(timer).not.toHaveText(first!);
      }
      await expect(selected.getByTestId("subscription-available")).toContainText("In your funding account: 1,000 USDT");

      await subscribe(page, "0.5");
      await expect(page.getByText("The smallest subscription is 1 TOP5.")).toBeVisible();
      // What was typed is kept.
      await expect(selected.getByLabel("Quantity (TOP5)")).toHaveValue("0.5");
      if (javaScriptEnabled) {
        // The cost follows the quantity as it is typed.
        await selected.getByLabel("Quantity (TOP5)").fill("2.5");
        await expect(selected.getByTestId("subscription-cost")).toContainText("25 USDT");
      }
      await subscribe(page, "2.5");
      await expect(page.getByText("2.5 TOP5 asked for 25 USDT: the amount is held until the allotment.")).toBeVisible();
      await expect(page.getByRole("heading", { name: "ETF purchase records", level: 1 })).toBeVisible();
      const records = page.getByRole("table", { name: "ETF purchase records" });
      await expect(records.getByRole("row")).toHaveCount(2);
      await expect(records).toContainText("In purchase");
      await expect(records).toContainText("Top 5 Index ETF (TOP5)");
      // The default variant offers no return application.
      await expect(page.getByTestId("return-application")).toHaveCount(0);
      await expect(page.getByRole("button", { name: "Apply for return" })).toHaveCount(0);

      await page.getByLabel("Status").selectOption({ label: "Allotted (won)" });
      await page.getByRole("button", { name: "Filter" }).click();
      await expect(page.getByText("No purchase records yet.")).toBeVisible();
      if (javaScriptEnabled) await expectNoSeriousA11yViolations(page);
    });
  });
}

test("a visitor sees the new-coin rounds, an upcoming round's countdown, and a log-in link instead of the form", async ({ page }) => {
  await page.goto("/newCurrency");
  await expect(page.getByRole("heading", { name: "New coin subscriptions", level: 1 })).toBeVisible();
  await expect(page.getByTestId("subscription-project")).not.toHaveCount(0);
  await page.getByRole("link", { name: /round NXA-R3/ }).click();
  await expect(page).toHaveURL(/\?project=NXA-R3$/);
  await expect(page.getByRole("timer")).toHaveText(/^Opens in [12] d \d+ h \d+ min \d+ s$/);
  await page.goto("/newCurrency?project=NXA-R2");
  await expect(page.getByRole("button", { name: "Subscribe" })).toHaveCount(0);
  await page.getByRole("link", { name: "Log in to subscribe" }).click();
  await expect(page).toHaveURL(/\/user\/login\?redirectTo=%2FnewCurrency%3Fproject%3DNXA-R2$/);
});

test("the subscription pages at 390 px and 1440 px", async ({ page }) => {
  // Eight pages, each with axe, on two shared cores.
  test.setTimeout(180_000);
  const member = await createMember("subs-shots");
  await deposit(member.uid, "USDT", "5000", "funding");
  await logIn(page, member.email, member.password, "/etf");
  await subscribe(page, "12.3");
  await expect(page.getByText("12.3 TOP5 asked for 123 USDT: the amount is held until the allotment.")).toBeVisible();
  for (const width of [390, 1440]) {
    await page.setViewportSize({ width, height: 900 });
    for (const [path, name] of [
      ["/etf", "etf"],
      ["/newCurrency?project=NXA-R2", "new-coin"],
      ["/newCurrency?project=NXA-R3", "upcoming"],
      ["/etf/list", "records"],
    ] as const) {
      await page.goto(path);
      const overflow = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
      expect(overflow, path).toBeLessThanOrEqual(0);
      await expectNoSeriousA11yViolations(page);
      await page.screenshot({ path: test.info().outputPath(`subscriptions-${name}-${width}.png`), fullPage: true });
    }
  }
});
