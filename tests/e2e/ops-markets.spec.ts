import { expect, test } from "@playwright/test";
import { createOperator, opsLogIn } from "./ops-support";
import { expectNoSeriousA11yViolations, hydrationErrors } from "./support";

/**
 * Issue 29: the console's markets page as a markets operator uses it, with and without JavaScript:
 * a market halted and resumed (by keyboard), a rules change refused with its message and then
 * made, at 1440 px and at 768 px. Each run has a market of its own (the runs go side by side), one
 * no other suite trades.
 */
for (const javaScriptEnabled of [true, false]) {
  test.describe(`operator console markets (JavaScript ${javaScriptEnabled ? "on" : "off"})`, () => {
    test("a markets operator halts and resumes a market and changes its taker fee; a bad fee is refused with its message", async ({ browser }) => {
      test.setTimeout(120_000);
      const symbol = javaScriptEnabled ? "XRP/USDT" : "SOL/USDT";
      const operator = await createOperator("markets", `e2e-markets-${javaScriptEnabled ? "js" : "nojs"}`);
      const context = await browser.newContext({ javaScriptEnabled, viewport: { width: 1440, height: 900 } });
      const page = await context.newPage();
      const errors = hydrationErrors(page);
      await opsLogIn(page, operator);
      await page.getByRole("link", { name: "Markets" }).click();
      await expect(page.getByRole("heading", { name: "Markets", level: 1 })).toBeVisible();
      await expect(page.getByText("A halted market refuses new orders, while members can still cancel")).toBeVisible();
      const row = page.getByRole("row").filter({ hasText: symbol });
      await expect(row).toHaveCount(1);
      await expect(row.getByText("Trading", { exact: true })).toBeVisible();
      if (javaScriptEnabled) await expectNoSeriousA11yViolations(page);

      // Halting asks nothing more: the button says what it does.
      await row.getByRole("button", { name: `Halt new orders on ${symbol}` }).click();
      await expect(page.getByText(`${symbol} is halted: new orders are refused, cancels still work.`)).toBeVisible();
      await expect(row.getByText("Halted", { exact: true })).toBeVisible();

      // A negative fee: refused with its message, the rules form open with what was typed.
      await row.getByText("Change rules…").click();
      const taker = row.getByLabel("Taker fee (bps)");
      await taker.fill("-5");
      await row.getByRole("button", { name: `Save rules of ${symbol}` }).click();
      await expect(page.getByRole("alert").filter({ hasText: "Taker fee (bps) cannot be negative." })).toBeVisible();
      await expect(taker).toHaveValue("-5");
      await expect(taker).toHaveAttribute("aria-invalid", "true");
      await expect(row.getByText("Taker 20 bps", { exact: true })).toBeVisible();
      if (javaScriptEnabled) await expectNoSeriousA11yViolations(page);

      await taker.fill("15");
      await row.getByRole("button", { name: `Save rules of ${symbol}` }).click();
      await expect(page.getByText(`The rules of ${symbol} were changed; they apply from the next order.`)).toBeVisible();
      await expect(row.getByText("Taker 15 bps", { exact: true })).toBeVisible();
      await expect(page.getByRole("alert").filter({ hasText: "cannot be negative" })).toHaveCount(0);

      // Resumed from the keyboard: a real button, reached and pressed without a mouse.
      const resume = row.getByRole("button", { name: `Resume trading on ${symbol}` });
      await resume.focus();
      await page.keyboard.press("Enter");
      await expect(page.getByText(`${symbol} is trading again.`)).toBeVisible();
      await expect(row.getByText("Trading", { exact: true })).toBeVisible();

      // At 768 px the page does not scroll sideways, and stays accessible.
      await page.setViewportSize({ width: 768, height: 1000 });
      expect(await page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth)).toBe(true);
      await expect(row.getByRole("button", { name: `Halt new orders on ${symbol}` })).toBeVisible();
      if (javaScriptEnabled) await expectNoSeriousA11yViolations(page);
      expect(errors).toEqual([]);
      await context.close();
    });
  });
}

/** Issue 30: the console's contracts page, with and without JavaScript: a contract halted and resumed, a bad band refused. */
for (const javaScriptEnabled of [true, false]) {
  test(`a markets operator halts and resumes a contract; a bad price band is refused (JavaScript ${javaScriptEnabled ? "on" : "off"})`, async ({ browser }) => {
    // Contracts the member journeys do not trade (the runs go side by side).
    const symbol = javaScriptEnabled ? "ETH/USD" : "XRP/USDT";
    const operator = await createOperator("markets", `e2e-contracts-${javaScriptEnabled ? "js" : "nojs"}`);
    const context = await browser.newContext({ javaScriptEnabled, viewport: { width: 1440, height: 900 } });
    const page = await context.newPage();
    const errors = hydrationErrors(page);
    await opsLogIn(page, operator);
    await page.getByRole("link", { name: "Contracts" }).click();
    await expect(page.getByRole("heading", { name: "Perpetual contracts", level: 1 })).toBeVisible();
    // Exactly that contract (ETH/USD is a prefix of ETH/USDT).
    const row = page.getByRole("row").filter({ has: page.getByText(symbol, { exact: true }) });
    await expect(row).toHaveCount(1);
    if (javaScriptEnabled) await expectNoSeriousA11yViolations(page);

    await row.getByRole("button", { name: `Halt new orders on ${symbol}` }).click();
    await expect(page.getByText(`${symbol} is halted: it takes no new orders.`)).toBeVisible();
    await expect(row.getByText("Halted", { exact: true })).toBeVisible();

    await row.getByText("Change rules…").click();
    const band = row.getByLabel("Price band (% around the mark)");
    await band.fill("75");
    await row.getByRole("button", { name: `Save rules of ${symbol}` }).click();
    await expect(page.getByRole("alert").filter({ hasText: "The price band must be above 0 and at most 50 %." })).toBeVisible();
    await expect(band).toHaveAttribute("aria-invalid", "true");

    await row.getByRole("button", { name: `Resume trading on ${symbol}` }).click();
    await expect(page.getByText(`${symbol} trades again.`)).toBeVisible();
    await expect(row.getByText("Trading", { exact: true })).toBeVisible();

    // The insurance funds (decision 048): fees the simulated trading paid, moved into USDT's fund.
    const usdt = page
      .getByTestId("ops-contract-funds")
      .getByRole("row")
      .filter({ has: page.getByText("USDT", { exact: true }) });
    await usdt.getByLabel("Fees to move (USDT)").fill("0.01");
    await usdt.getByRole("button", { name: "Move to the fund" }).click();
    await expect(page.getByText("0.01 USDT of fees moved into the insurance fund.")).toBeVisible();
    // Not a number: the reason, and nothing moved.
    await usdt.getByLabel("Fees to move (USDT)").fill("abc");
    await usdt.getByRole("button", { name: "Move to the fund" }).click();
    await expect(page.getByRole("alert").filter({ hasText: "USDT" })).toBeVisible();
    if (javaScriptEnabled) await expectNoSeriousA11yViolations(page);
    expect(errors).toEqual([]);
    await context.close();
  });
}
