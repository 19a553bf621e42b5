import { expect, test, type Browser } from "@playwright/test";
import { createOperator, opsLogIn, submitKyc } from "./ops-support";
import { createMember, logIn } from "./spot-support";
import { adminHeaders, ENGINE_URL, expectNoSeriousA11yViolations, hydrationErrors } from "./support";
import { withdrawingMember } from "./wallet-support";

/**
 * Issue 29: the operator console as its operators use it, with and without JavaScript. An admin
 * adds a support operator; a compliance operator approves an identity; a finance operator rejects
 * a withdrawal and its member reads the reason; the audit log shows all three, with who did them.
 */
for (const javaScriptEnabled of [true, false]) {
  test.describe(`operator console (JavaScript ${javaScriptEnabled ? "on" : "off"})`, () => {
    const open = async (browser: Browser) => {
      const context = await browser.newContext({ javaScriptEnabled, viewport: { width: 1440, height: 900 } });
      return { context, page: await context.newPage() };
    };

    test("an admin adds an operator, compliance approves an identity, finance rejects a withdrawal, and the audit log shows who did each", async ({
      browser,
    }) => {
      test.setTimeout(180_000);
      const tag = javaScriptEnabled ? "js" : "nojs";
      const [admin, compliance, finance] = await Promise.all([
        createOperator("admin", `e2e-admin-${tag}`),
        createOperator("compliance", `e2e-compliance-${tag}`),
        createOperator("finance", `e2e-finance-${tag}`),
      ]);

      // The admin's first login sets the authenticator up; then a support operator is added.
      const adminSide = await open(browser);
      const errors = hydrationErrors(adminSide.page);
      await opsLogIn(adminSide.page, admin);
      if (javaScriptEnabled) await expectNoSeriousA11yViolations(adminSide.page);
      await adminSide.page.getByRole("link", { name: "Operators" }).click();
      await expect(adminSide.page.getByRole("heading", { name: "Operators", level: 1 })).toBeVisible();
      const supportEmail = `e2e-support-${tag}-${Date.now()}@ops.example`;
      const add = adminSide.page.locator("form").filter({ has: adminSide.page.getByRole("button", { name: "Add operator" }) });
      await add.getByLabel("E-mail").fill(supportEmail);
      await add.getByLabel("Name").fill(`Support ${tag}`);
      await add.getByLabel("Role").selectOption("support");
      await add.getByLabel("Initial password").fill("support password 123");
      await add.getByRole("button", { name: "Add operator" }).click();
      await expect(adminSide.page.getByRole("cell", { name: supportEmail })).toBeVisible();
      if (javaScriptEnabled) await expectNoSeriousA11yViolations(adminSide.page);

      // A member's identity in review: compliance approves it.
      const member = await createMember(`ops-${tag}`);
      await submitKyc(member.email, member.password);
      const complianceSide = await open(browser);
      await opsLogIn(complianceSide.page, compliance);
      await complianceSide.page.getByRole("link", { name: "Identity reviews" }).click();
      await expect(complianceSide.page.getByText(`Member ${member.uid}`, { exact: true })).toBeVisible();
      if (javaScriptEnabled) await expectNoSeriousA11yViolations(complianceSide.page);
      await complianceSide.page.getByRole("button", { name: `Approve the identity of member ${member.uid}` }).click();
      await expect(complianceSide.page.getByText(`Identity of member ${member.uid} approved.`)).toBeVisible();
      await expect(complianceSide.page.getByText(`Member ${member.uid}`, { exact: true })).toHaveCount(0);

      // The member asks to withdraw; finance rejects it with a reason the member then reads.
      const credited = await fetch(`${ENGINE_URL}/admin/deposit`, {
        method: "POST",
        headers: { "content-type": "application/json", ...adminHeaders() },
        body: JSON.stringify({ uid: member.uid, coin: "USDT", account: "funding", amount: "500", reference: `e2e-ops-${member.uid}` }),
      });
      expect(credited.status).toBe(200);
      const withdrawal = await (await withdrawingMember(member.email, member.password)).withdraw("25");
      const financeSide = await open(browser);
      await opsLogIn(financeSide.page, finance);
      await financeSide.page.getByRole("link", { name: "Withdrawal reviews" }).click();
      const row = financeSide.page.getByRole("row").filter({ hasText: withdrawal });
      await expect(row).toBeVisible();
      if (javaScriptEnabled) await expectNoSeriousA11yViolations(financeSide.page);
      const fold = row.getByText("Reject…");
      if (await fold.count()) await fold.click();
      await row.getByLabel("Reason for the member").fill("The address belongs to a sanctioned service.");
      await row.getByRole("button", { name: new RegExp(`^Reject withdrawal ${withdrawal}`) }).click();
      await expect(financeSide.page.getByText(new RegExp(`Withdrawal ${withdrawal} rejected`))).toBeVisible();

      const memberSide = await open(browser);
      await logIn(memberSide.page, member.email, member.password, "/account/wallet/history-withdrawal");
      await expect(memberSide.page.getByText("The address belongs to a sanctioned service.")).toBeVisible();
      // A member's session opens no console page: the console's login asks for an operator.
      await memberSide.page.goto("/ops");
      await expect(memberSide.page).toHaveURL(/\/ops\/login/);

      // The audit log names all three, with the operator who did each.
      await adminSide.page.getByRole("link", { name: "Audit log" }).click();
      await expect(adminSide.page.getByRole("heading", { name: "Audit log", level: 1 })).toBeVisible();
      const log = adminSide.page.getByRole("table");
      await expect(log.getByRole("row").filter({ hasText: "operators.add" }).filter({ hasText: admin.name })).not.toHaveCount(0);
      await expect(log.getByRole("row").filter({ hasText: "kyc.review" }).filter({ hasText: compliance.name }).filter({ hasText: member.uid })).toHaveCount(1);
      await expect(log.getByRole("row").filter({ hasText: "withdrawal.review" }).filter({ hasText: finance.name })).not.toHaveCount(0);
      if (javaScriptEnabled) await expectNoSeriousA11yViolations(adminSide.page);

      // The support operator the admin added: their menu has no audit log, and the page refuses them.
      const supportSide = await open(browser);
      await opsLogIn(supportSide.page, { email: supportEmail }, undefined, new Set(), "support password 123");
      await expect(supportSide.page.getByRole("link", { name: "Audit log" })).toHaveCount(0);
      await supportSide.page.goto("/ops/audit");
      await expect(supportSide.page.getByRole("heading", { name: "Not for your role" })).toBeVisible();
      expect(errors).toEqual([]);
      for (const side of [adminSide, complianceSide, financeSide, memberSide, supportSide]) await side.context.close();
    });
  });
}
