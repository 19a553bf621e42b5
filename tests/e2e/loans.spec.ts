import { expect, test, type Page } from "@playwright/test";
import { createMember, deposit, logIn } from "./spot-support";
import { createOperator, opsLogIn } from "./ops-support";
import { adminHeaders, ENGINE_URL, expectNoSeriousA11yViolations } from "./support";

/** Crypto loans (issue 31, decision 051): the calculator, a loan taken, collateral added, repaid in part and in full, with and without JavaScript. */

const loanCard = (page: Page) => page.getByTestId("loan");

async function loanForm(page: Page, operation: string, amount: string) {
  const card = loanCard(page);
  await card.getByLabel("What to do").selectOption({ label: operation });
  await card.getByLabel("Amount").fill(amount);
  await card.getByRole("button", { name: "Confirm" }).click();
}

for (const javaScriptEnabled of [true, false]) {
  test.describe(`crypto loans, JavaScript ${javaScriptEnabled ? "on" : "off"}`, () => {
    test.use({ javaScriptEnabled });

    test("a member works out a loan, takes it, adds collateral, repays in part and in full, and finds it in the history", async ({ page }) => {
      const member = await createMember(javaScriptEnabled ? "loan-js" : "loan-nojs");
      await deposit(member.uid, "BTC", "1", "funding");
      await deposit(member.uid, "USDT", "10", "funding");
      await logIn(page, member.email, member.password, "/pledge-loan");
      await expect(page.getByRole("heading", { name: "Crypto loans", level: 1 })).toBeVisible();
      await expect(page.getByTestId("loan-terms").getByRole("listitem")).toHaveCount(5);
      const calculator = page.getByRole("form", { name: "Loan calculator" });
      await calculator.getByLabel("Term").selectOption({ index: 2 });
      await calculator.getByLabel("Collateral (BTC)").fill("0.5");
      await calculator.getByRole("button", { name: "Calculate" }).click();
      await expect(page.getByTestId("loan-quote")).toContainText("You can borrow up to");
      await page.getByRole("link", { name: "Borrow now" }).click();

      await expect(page.getByRole("heading", { name: "Take a loan", level: 1 })).toBeVisible();
      const form = page.getByRole("form", { name: "Take a loan" });
      await expect(form.getByLabel("Loan", { exact: true })).toHaveValue("USDT-BTC-30");
      await expect(form.getByLabel("Collateral (BTC)")).toHaveValue("0.5");
      await form.getByLabel("Loan (USDT)").fill("900000");
      await form.getByRole("button", { name: "Borrow" }).click();
      await expect(page.getByText("The largest loan is 500000 USDT.")).toBeVisible();
      await form.getByLabel("Loan (USDT)").fill("5000");
      await form.getByRole("button", { name: "Borrow" }).click();
      await expect(page.getByText("5,000 USDT borrowed: it is in your funding account.")).toBeVisible();
      await expect(page.getByRole("heading", { name: "My loans", level: 1 })).toBeVisible();
      await expect(loanCard(page)).toHaveCount(1);
      await expect(page.getByTestId("loan-collateral")).toHaveText("0.50000000 BTC");

      await loanForm(page, "Add collateral", "0.1");
      await expect(page.getByText("0.1 BTC added as collateral.")).toBeVisible();
      await expect(page.getByTestId("loan-collateral")).toHaveText("0.60000000 BTC");
      await loanForm(page, "Take back collateral", "0.59");
      await expect(page.getByText(/^That would take the loan above its initial LTV of 65 %/)).toBeVisible();
      await loanForm(page, "Repay", "1000");
      await expect(page.getByText("1,000 USDT repaid.")).toBeVisible();
      const owed = (await page.getByTestId("loan-owed").textContent())!.replace(/[^0-9.]/g, "");
      await loanForm(page, "Repay", owed);
      await expect(page.getByText("Loan repaid: its collateral is back in your funding account.")).toBeVisible();
      await expect(page.getByText("You have no open loans.")).toBeVisible();

      await page.getByRole("link", { name: "Loan history" }).click();
      await expect(page.getByRole("table", { name: "Loan history" })).toContainText("Repaid");
      await page.getByRole("link", { name: "Records" }).first().click();
      await expect(page.getByRole("table")).toContainText("Borrowed");
      if (javaScriptEnabled) await expectNoSeriousA11yViolations(page);
    });
  });
}

test("the loan pages at 390 px and 1440 px", async ({ page }) => {
  // Pages through axe at two widths: more than the default minute on a slow day.
  test.setTimeout(180_000);
  const member = await createMember("loan-shots");
  await deposit(member.uid, "BTC", "1", "funding");
  await logIn(page, member.email, member.password, "/my-loan/get");
  const form = page.getByRole("form", { name: "Take a loan" });
  await form.getByLabel("Collateral (BTC)").fill("0.4");
  await form.getByLabel("Loan (USDT)").fill("3000");
  await form.getByRole("button", { name: "Borrow" }).click();
  await expect(loanCard(page)).toHaveCount(1);
  for (const width of [390, 1440]) {
    await page.setViewportSize({ width, height: 900 });
    for (const [path, name] of [
      ["/pledge-loan?coin=BTC&product=USDT-BTC-30&collateral=1", "market"],
      ["/my-loan/get", "borrow"],
      ["/my-loan", "loans"],
      ["/borrowings/records", "records"],
    ] as const) {
      await page.goto(path);
      const overflow = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
      expect(overflow, path).toBeLessThanOrEqual(0);
      await expectNoSeriousA11yViolations(page);
      await page.screenshot({ path: test.info().outputPath(`loans-${name}-${width}.png`), fullPage: true });
    }
  }
});

test("an operator changes a loan product with the CLI, and visitors see it on the loans page", async ({ page }) => {
  const { execFileSync } = await import("node:child_process");
  const admin = (...args: string[]) =>
    execFileSync(process.execPath, ["--import", "tsx", "engine/admin-cli.ts", "loans", ...args], {
      env: { ...process.env, ENGINE_URL, ADMIN_TOKEN: adminHeaders()["x-admin-token"] },
      encoding: "utf8",
    });
  expect(admin("products")).toMatch(/^USDT-SOL-180 {2}USDT against SOL {2}180 days {2}0\.0000075\/h/m);
  try {
    expect(admin("product", "USDT-SOL-180", "--rate", "0.00001", "--overdue", "0.00003")).toMatch(/^USDT-SOL-180 .* 0\.00001\/h \(0\.0876 a year/);
    await page.goto("/pledge-loan?coin=SOL");
    await expect(page.getByTestId("loan-terms").getByRole("listitem").last()).toContainText("8.76 %");
  } finally {
    expect(admin("product", "USDT-SOL-180", "--rate", "0.0000075", "--overdue", "0.0000225")).toMatch(/0\.0000075\/h/);
  }
});

for (const javaScriptEnabled of [true, false]) {
  test(`a markets operator changes a loan product in the console (JavaScript ${javaScriptEnabled ? "on" : "off"})`, async ({ browser }) => {
    // Each run a product of its own (the runs share the exchange side by side), a minimum other than the one it has.
    const id = javaScriptEnabled ? "USDT-ETH-180" : "USDT-ETH-90";
    const products = (await (await fetch(`${ENGINE_URL}/admin/pledge/products`, { headers: adminHeaders() })).json()) as {
      data: Array<{ productId: string; minAmount: string }>;
    };
    const min = products.data.find((p) => p.productId === id)!.minAmount === "100" ? "150" : "100";
    const operator = await createOperator("markets", `e2e-loans-${javaScriptEnabled ? "js" : "nojs"}`);
    const context = await browser.newContext({ javaScriptEnabled, viewport: { width: 1440, height: 900 } });
    const page = await context.newPage();
    await opsLogIn(page, operator);
    await page.getByRole("link", { name: "Crypto loans" }).click();
    await expect(page.getByRole("heading", { name: "Crypto loan products", level: 1 })).toBeVisible();
    const row = page
      .getByTestId("ops-loan-products")
      .getByRole("row")
      .filter({ has: page.getByText(id, { exact: true }) });
    await expect(row).toHaveCount(1);
    if (javaScriptEnabled) await expectNoSeriousA11yViolations(page);
    await row.getByText("Change rules…").click();
    await row.getByLabel("Smallest loan").fill(min);
    await row.getByRole("button", { name: `Save ${id}` }).click();
    await expect(page.getByText(`${id}'s rules are saved.`)).toBeVisible();
    await expect(row).toContainText(`From ${min} to`);
    for (const width of [390, 1440]) {
      await page.setViewportSize({ width, height: 900 });
      expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(width);
      await page.screenshot({ path: test.info().outputPath(`ops-loans-${width}.png`), fullPage: true });
    }
  });
}
