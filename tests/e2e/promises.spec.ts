import { expect, test } from "@playwright/test";
import { text } from "./support";

/**
 * No page promises what the product cannot do (issue 14): the home page presents the products
 * whose pages this build serves, and the prose of the home, about and footer names none.
 */
for (const javaScriptEnabled of [true, false]) {
  test(`the home and about pages promise only what works, JavaScript ${javaScriptEnabled ? "on" : "off"}`, async ({ browser }) => {
    const page = await (await browser.newContext({ javaScriptEnabled })).newPage();
    await page.goto("/home/index");
    const products = page.getByRole("region", { name: text("en", "home.products.title") }).getByRole("heading", { level: 3 });
    await expect(products).toHaveText([
      text("en", "home.products.spot.title"),
      text("en", "home.products.wallet.title"),
      text("en", "home.products.contract.title"),
      text("en", "home.products.margin.title"),
      text("en", "home.products.loans.title"),
      text("en", "home.products.staking.title"),
      text("en", "home.products.subscription.title"),
    ]);
    // Staking is served, so its "up to 18%" is a promise kept (the engine refuses a product above it);
    // support is not served yet, so nothing promises it.
    await expect(page.getByRole("main").getByText(text("en", "home.products.staking.text"))).toHaveCount(1);
    await expect(page.getByRole("main").getByText(text("en", "home.products.support.title"))).toHaveCount(0);
    await expect(page.getByRole("contentinfo")).toContainText(text("en", "footer.tagline"));
    await expect(page.getByRole("contentinfo")).not.toContainText("staking");

    await page.goto("/aboutus");
    await expect(page.getByRole("main")).not.toContainText(/staking|contracts|around the clock/i);
  });
}
