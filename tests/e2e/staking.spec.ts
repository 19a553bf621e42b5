import { expect, test, type Page } from "@playwright/test";
import { createMember, deposit, logIn } from "./spot-support";
import { expectNoSeriousA11yViolations } from "./support";

/** Staking (issue 32, decision 052): a flexible stake taken, seen running, redeemed with its interest shown first, and its records; with and without JavaScript. */

const productCard = (page: Page, term: string) =>
  page.getByTestId("stake-product").filter({ has: page.getByRole("heading", { name: term, exact: true, level: 3 }) });

async function stakeIn(page: Page, term: string, amount: string) {
  const card = productCard(page, term);
  await card.getByLabel("Amount (USDT)").fill(amount);
  await card.getByRole("button", { name: "Stake" }).click();
}

for (const javaScriptEnabled of [true, false]) {
  test.describe(`staking, JavaScript ${javaScriptEnabled ? "on" : "off"}`, () => {
    test.use({ javaScriptEnabled });

    test("a member stakes 100 USDT flexibly, sees it running, redeems it with its interest shown first, and finds the records", async ({ page }) => {
      // A whole journey with axe on three pages, on two shared cores.
      test.setTimeout(120_000);
      const member = await createMember(javaScriptEnabled ? "stake-js" : "stake-nojs");
      await deposit(member.uid, "USDT", "1000", "funding");
      await logIn(page, member.email, member.password, "/finance/investment");
      await expect(page.getByRole("heading", { name: "Staking", level: 1 })).toBeVisible();
      await expect(page.getByTestId("stake-product")).toHaveCount(4);
      await expect(productCard(page, "90 days")).toContainText("18.00 %");

      await stakeIn(page, "Flexible", "5");
      await expect(page.getByText("The smallest stake is 10 USDT.")).toBeVisible();
      await stakeIn(page, "Flexible", "100");
      await expect(page.getByText("100 USDT staked.")).toBeVisible();
      await expect(page.getByRole("heading", { name: "My stakes", level: 1 })).toBeVisible();
      const running = page.getByRole("table", { name: "Running stakes" });
      await expect(running.getByRole("row")).toHaveCount(2);
      await expect(running).toContainText("Flexible");
      await expect(running).toContainText("100 USDT");
      await expect(page.getByTestId("stake-outstanding")).toContainText("1 stake");
      if (javaScriptEnabled) await expectNoSeriousA11yViolations(page);

      await running.getByRole("link", { name: "Redeem the 100 USDT stake, Flexible" }).click();
      await expect(page.getByRole("heading", { name: "Redeem a stake", level: 1 })).toBeVisible();
      const preview = page.getByTestId("stake-preview");
      await expect(preview.getByTestId("preview-principal")).toHaveText(/^100\.0+ USDT$/);
      await expect(preview.getByText("Interest paid")).toBeVisible();
      await expect(preview.getByTestId("preview-interest")).toHaveText(/^0\.\d+ USDT$/);
      // A part previewed first: the preview follows the amount.
      await page.getByLabel("Amount (USDT)").fill("30");
      await page.getByRole("button", { name: "Show what I get" }).click();
      await expect(preview.getByTestId("preview-principal")).toHaveText(/^30\.0+ USDT$/);
      await page.getByLabel("Amount (USDT)").fill("");
      await page.getByRole("button", { name: "Show what I get" }).click();
      await expect(preview.getByTestId("preview-principal")).toHaveText(/^100\.0+ USDT$/);
      if (javaScriptEnabled) await expectNoSeriousA11yViolations(page);
      await page.getByRole("button", { name: "Confirm redemption" }).click();
      await expect(page.getByText(/^100 USDT redeemed with [\d.]+ USDT of interest: it is in your funding account\.$/)).toBeVisible();
      await expect(page.getByText("Nothing to repay: you have no running stakes.")).toBeVisible();
      await expect(page.getByRole("table", { name: "Ended stakes" })).toContainText("Redeemed");

      await page.getByRole("link", { name: "Staking records" }).click();
      const records = page.getByRole("table", { name: "Staking records" });
      await expect(records).toContainText("Staked");
      await expect(records).toContainText("Redeemed");
      await page.getByLabel("What happened").selectOption({ label: "Staked" });
      await page.getByRole("button", { name: "Filter" }).click();
      await expect(records.getByRole("row")).toHaveCount(2);
      if (javaScriptEnabled) await expectNoSeriousA11yViolations(page);
    });
  });
}

test("a visitor sees the products and a log-in link instead of the form", async ({ page }) => {
  await page.goto("/finance/investment?coin=BTC");
  await expect(page.getByRole("heading", { name: "BTC staking", level: 2 })).toBeVisible();
  await expect(page.getByTestId("stake-product")).toHaveCount(4);
  await expect(page.getByRole("button", { name: "Stake" })).toHaveCount(0);
  await page.getByRole("link", { name: "Log in to stake" }).first().click();
  await expect(page).toHaveURL(/\/user\/login\?redirectTo=%2Ffinance%2Finvestment%3Fcoin%3DBTC$/);
});

test("the staking pages at 390 px and 1440 px", async ({ page }) => {
  // Eight pages, each with axe, on two shared cores.
  test.setTimeout(150_000);
  const member = await createMember("stake-shots");
  await deposit(member.uid, "USDT", "5000", "funding");
  await logIn(page, member.email, member.password, "/finance/investment");
  await stakeIn(page, "Flexible", "1200");
  await expect(page.getByText("1,200 USDT staked.")).toBeVisible();
  await page.goto("/finance/investment");
  await stakeIn(page, "30 days", "2500");
  await expect(page.getByText("2,500 USDT staked.")).toBeVisible();
  const fixed = page.getByRole("table", { name: "Running stakes" }).getByRole("link", { name: "Redeem the 2,500 USDT stake, 30 days" });
  const redeemPath = (await fixed.getAttribute("href"))!;
  for (const width of [390, 1440]) {
    await page.setViewportSize({ width, height: 900 });
    for (const [path, name] of [
      ["/finance/investment", "products"],
      ["/finance/investment/mine", "mine"],
      [redeemPath, "redeem-fixed"],
      ["/finance/investment/records", "records"],
    ] as const) {
      await page.goto(path);
      const overflow = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
      expect(overflow, path).toBeLessThanOrEqual(0);
      await expectNoSeriousA11yViolations(page);
      await page.screenshot({ path: test.info().outputPath(`staking-${name}-${width}.png`), fullPage: true });
    }
    // The early redemption's warning is shown before the confirmation.
    await page.goto(redeemPath);
    await expect(page.getByRole("note")).toContainText("Redeemed now, it pays back its principal only");
  }
});
