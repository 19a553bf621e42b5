import { expect, test } from "@playwright/test";
import { createMember, logIn } from "./spot-support";
import { expectNoSeriousA11yViolations, lastMailId, latestCode, text } from "./support";
import { TRON_ADDRESS } from "./wallet-support";

/** The withdrawal address book and its whitelist mode (issue 12, decision 029), with and without JavaScript. */

const PAGE = "/account/wallet/address";

for (const javaScriptEnabled of [true, false]) {
  test.describe(`the address book, JavaScript ${javaScriptEnabled ? "on" : "off"}`, () => {
    test.use({ javaScriptEnabled });

    test("a member saves an address, sees it listed, turns the whitelist on with a code, and deletes the address", async ({ page }) => {
      const member = await createMember(javaScriptEnabled ? "book-js" : "book-nojs");
      await logIn(page, member.email, member.password, "/account/wallet/assets");
      await page
        .getByRole("navigation", { name: text("en", "wallet.menu_label") })
        .getByRole("link", { name: "Address book" })
        .click();
      await expect(page).toHaveURL(new RegExp(`${PAGE}$`));
      await expect(page.getByRole("heading", { name: "Withdrawal address book" })).toBeVisible();
      await expect(page.getByText("No saved addresses yet.")).toBeVisible();
      await expect(page.getByTestId("whitelist-state")).toHaveText("Off");

      // A typo in the address: the engine names the network, nothing is saved.
      const add = page.getByRole("region", { name: "Add an address" });
      await add.getByLabel("Coin and network").selectOption("USDT:TRC20");
      await add.getByLabel("Address").fill(`${TRON_ADDRESS.slice(0, -1)}M`);
      await add.getByLabel("Label").fill("Cold wallet");
      await add.getByRole("button", { name: "Save address" }).click();
      await expect(add.getByText("This is not a valid TRC20 address.")).toBeVisible();
      await expect(page.getByText("No saved addresses yet.")).toBeVisible();

      await add.getByLabel("Coin and network").selectOption("USDT:TRC20");
      await add.getByLabel("Address").fill(TRON_ADDRESS);
      await add.getByLabel("Label").fill("Cold wallet");
      await add.getByRole("button", { name: "Save address" }).click();
      await expect(page.getByText("Saved “Cold wallet” to your address book.")).toBeVisible();
      await expect(add.getByLabel("Label")).toHaveValue("");
      const rows = page.getByTestId("address-book").getByRole("row");
      await expect(rows).toHaveCount(2);
      await expect(rows.nth(1)).toContainText("Cold wallet");
      await expect(rows.nth(1)).toContainText("USDT · TRC20");
      await expect(rows.nth(1)).toContainText(TRON_ADDRESS);
      if (javaScriptEnabled) await expectNoSeriousA11yViolations(page);

      // Whitelist on: a code from the member's mailbox; the new address is usable tomorrow.
      const whitelist = page.getByRole("region", { name: "Whitelist mode" });
      const before = await lastMailId(member.email);
      await whitelist.getByRole("button", { name: "Send code" }).click();
      const { code } = await latestCode(member.email, before);
      await whitelist.getByLabel("Verification code").fill(code);
      await whitelist.getByRole("button", { name: "Turn on whitelist mode" }).click();
      await expect(page.getByText("Whitelist mode is on.")).toBeVisible();
      await expect(page.getByTestId("whitelist-state")).toContainText("On since");
      await expect(whitelist.getByLabel("Verification code")).toHaveValue("");
      await expect(rows.nth(1)).toContainText(/From .+ UTC/);
      await expect(page.getByRole("button", { name: "Turn off whitelist mode" })).toBeVisible();
      if (javaScriptEnabled) await expectNoSeriousA11yViolations(page);

      await rows.nth(1).getByRole("button", { name: "Delete the address “Cold wallet”" }).click();
      await expect(page.getByText("Address deleted.")).toBeVisible();
      await expect(page.getByText("No saved addresses yet.")).toBeVisible();
    });
  });
}
