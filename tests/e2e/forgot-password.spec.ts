import { expect, test } from "@playwright/test";
import { createMember } from "./spot-support";
import { expectNoSeriousA11yViolations, lastMailId, latestCode } from "./support";

/** Issue 8 §7: login links to a forgotten-password flow; a reset code, a new password, every session ends. */
for (const javaScriptEnabled of [true, false]) {
  test(`a member who forgot the password resets it with a code, JavaScript ${javaScriptEnabled ? "on" : "off"}`, async ({ browser }) => {
    test.setTimeout(60_000);
    const member = await createMember(javaScriptEnabled ? "forgot-js" : "forgot-nojs");
    // A session somewhere else, which the reset must end.
    const other = await (await browser.newContext()).newPage();
    await other.goto("/user/login");
    await other.getByLabel("E-mail").fill(member.email);
    await other.getByLabel("Password", { exact: true }).fill(member.password);
    await other.getByRole("button", { name: "Log in", exact: true }).click();
    await expect(other).toHaveURL(/\/account\/center\/info$/);

    const fresh = await (await browser.newContext({ javaScriptEnabled })).newPage();
    await fresh.goto("/user/login");
    await fresh.getByRole("link", { name: "Forgot password?" }).click();
    await expect(fresh).toHaveURL(/\/user\/forgot-password$/);
    await expect(fresh.getByRole("heading", { level: 1, name: "Reset your password" })).toBeVisible();
    if (javaScriptEnabled) await expectNoSeriousA11yViolations(fresh); // axe runs as a page script

    await fresh.getByLabel("E-mail").fill(member.email);
    const before = await lastMailId(member.email);
    await fresh.getByRole("button", { name: /Send code|Send again/ }).click();
    await expect(fresh.getByText(`We sent a 6-digit code to ${member.email}`)).toBeVisible();
    const { code } = await latestCode(member.email, before);

    // Mismatched passwords and a wrong code are refused with messages; nothing changes.
    await fresh.getByLabel("Verification code").fill(code);
    await fresh.getByLabel("New password", { exact: true }).fill("renewed123");
    await fresh.getByLabel("Repeat the new password").fill("renewed124");
    await fresh.getByRole("button", { name: "Reset password" }).click();
    await expect(fresh.getByText("The passwords do not match.")).toBeVisible();
    await fresh.getByLabel("Verification code").fill(code === "000000" ? "111111" : "000000");
    await fresh.getByLabel("New password", { exact: true }).fill("renewed123");
    await fresh.getByLabel("Repeat the new password").fill("renewed123");
    await fresh.getByRole("button", { name: "Reset password" }).click();
    await expect(fresh.getByText("The verification code is wrong.")).toBeVisible();

    await fresh.getByLabel("Verification code").fill(code);
    await fresh.getByLabel("New password", { exact: true }).fill("renewed123");
    await fresh.getByLabel("Repeat the new password").fill("renewed123");
    await fresh.getByRole("button", { name: "Reset password" }).click();
    await expect(fresh).toHaveURL(/\/user\/login$/);
    await expect(fresh.getByText("Your password was reset. Log in with the new one.")).toBeVisible();

    // The other session is over; the old password no longer works, the new one does.
    await other.goto("/account/center/info");
    await expect(other).not.toHaveURL(/\/account\//);
    await expect(other.getByRole("banner").getByRole("link", { name: "Log in", exact: true })).toBeVisible();
    await fresh.getByLabel("E-mail").fill(member.email);
    await fresh.getByLabel("Password", { exact: true }).fill(member.password);
    await fresh.getByRole("button", { name: "Log in", exact: true }).click();
    await expect(fresh.getByRole("alert").filter({ hasText: /wrong|incorrect/i })).toBeVisible();
    await fresh.getByLabel("E-mail").fill(member.email);
    await fresh.getByLabel("Password", { exact: true }).fill("renewed123");
    await fresh.getByRole("button", { name: "Log in", exact: true }).click();
    await expect(fresh).toHaveURL(/\/account\/center\/info$/);
    await fresh.context().close();
    await other.context().close();
  });
}
