import { expect, test } from "@playwright/test";
import { createOperator, opsLogIn } from "./ops-support";
import { createMember, logIn } from "./spot-support";
import { expectNoSeriousA11yViolations, hydrationErrors } from "./support";

/**
 * Issue 29: the console's members pages as a compliance operator uses them, with and without
 * JavaScript: a member found by the start of their e-mail, their page opened from the results,
 * a freeze refused without a reason, then made (the member's login is refused with the reason's
 * words), and undone; at 1440 px and at 768 px.
 */
for (const javaScriptEnabled of [true, false]) {
  test.describe(`operator console members (JavaScript ${javaScriptEnabled ? "on" : "off"})`, () => {
    test("a compliance operator finds a member, freezes them with a reason and unfreezes them", async ({ browser }) => {
      test.setTimeout(120_000);
      const tag = javaScriptEnabled ? "ops-members-js" : "ops-members-nojs";
      const member = await createMember(tag);
      const operator = await createOperator("compliance", `e2e-${tag}`);
      const context = await browser.newContext({ javaScriptEnabled, viewport: { width: 1440, height: 900 } });
      const page = await context.newPage();
      const errors = hydrationErrors(page);
      await opsLogIn(page, operator);
      await page.getByRole("link", { name: "Members", exact: true }).click();
      await expect(page.getByRole("heading", { name: "Members", level: 1 })).toBeVisible();
      await page.getByRole("searchbox", { name: "Member" }).fill(member.email.slice(0, 20));
      await page.getByRole("button", { name: "Find", exact: true }).click();
      await expect(page.getByText(/members? match/)).toBeVisible();
      if (javaScriptEnabled) await expectNoSeriousA11yViolations(page);
      await page.getByRole("link", { name: `Open member ${member.uid}` }).click();
      await expect(page.getByRole("heading", { name: `Member ${member.uid}`, level: 1 })).toBeVisible();
      await expect(page.getByText(member.email)).toBeVisible();
      await expect(page.getByRole("heading", { name: "Logins" })).toBeVisible();

      // No reason: refused with its message, nothing changed.
      const freeze = page.getByRole("form", { name: "Freeze the account" });
      await freeze.getByLabel("Reason (kept in the audit log)").fill("no");
      await freeze.getByRole("button", { name: "Freeze" }).click();
      await expect(page.getByText("Give a reason of 5 to 300 characters")).toBeVisible();
      await expect(page.getByText("Frozen", { exact: true })).toHaveCount(0);
      if (javaScriptEnabled) await expectNoSeriousA11yViolations(page);

      await freeze.getByLabel("Reason (kept in the audit log)").fill("Reported stolen by the owner.");
      await freeze.getByRole("button", { name: "Freeze" }).click();
      await expect(page.getByText(`Member ${member.uid} frozen: every session ended.`)).toBeVisible();
      await expect(page.getByText("Frozen", { exact: true })).toBeVisible();
      await expect(page.getByText(/Reported stolen by the owner\./)).toBeVisible();

      // The member is refused at the login, with words that say why.
      const memberContext = await browser.newContext({ javaScriptEnabled });
      const memberPage = await memberContext.newPage();
      await memberPage.goto("/user/login");
      await memberPage.getByLabel("E-mail").fill(member.email);
      await memberPage.getByLabel("Password", { exact: true }).fill(member.password);
      await memberPage.getByRole("button", { name: "Log in", exact: true }).click();
      await expect(memberPage.getByText("This account is frozen. Please contact support.")).toBeVisible();

      // Unfrozen from the keyboard; at 768 px nothing scrolls sideways.
      const unfreeze = page.getByRole("form", { name: "Unfreeze the account" });
      await unfreeze.getByLabel("Reason (kept in the audit log)").fill("Owner verified on a video call.");
      await unfreeze.getByRole("button", { name: "Unfreeze" }).focus();
      await page.keyboard.press("Enter");
      await expect(page.getByText(`Member ${member.uid} unfrozen.`)).toBeVisible();
      await logIn(memberPage, member.email, member.password);
      await page.setViewportSize({ width: 768, height: 1000 });
      expect(await page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth)).toBe(true);
      if (javaScriptEnabled) await expectNoSeriousA11yViolations(page);
      expect(errors).toEqual([]);
      await memberContext.close();
      await context.close();
    });
  });
}
