import { expect, test, type Page } from "@playwright/test";
import { adminHeaders, ENGINE_URL, expectNoSeriousA11yViolations, logOutFromMenu, sendCodeAndRead, uniqueEmail } from "./support";

async function register(page: Page, email: string, password: string) {
  await page.goto("/user/register");
  await page.getByLabel("E-mail").fill(email);
  const { code } = await sendCodeAndRead(page, email);
  await page.getByLabel("Verification code").fill(code);
  await page.getByLabel("Password", { exact: true }).fill(password);
  await page.getByRole("button", { name: "Create account" }).click();
  await expect(page).toHaveURL(/\/account\/center\/info$/);
}

async function logIn(page: Page, email: string, password: string) {
  await page.goto("/user/login");
  await page.getByLabel("E-mail").fill(email);
  await page.getByLabel("Password", { exact: true }).fill(password);
  await page.getByRole("button", { name: "Log in", exact: true }).click();
  await expect(page).toHaveURL(/\/account\/center\/info$/);
}

for (const javaScriptEnabled of [true, false]) {
  test.describe(`a new member, JavaScript ${javaScriptEnabled ? "on" : "off"}`, () => {
    test.use({ javaScriptEnabled });

    test("registers, secures the account, changes the password and manages devices", async ({ page, browser }) => {
      test.setTimeout(90_000);
      const email = uniqueEmail(javaScriptEnabled ? "js" : "nojs");
      await register(page, email, "first123");
      await expect(page.getByRole("heading", { name: "Account info" })).toBeVisible();
      await expect(page.getByRole("main").getByText(`${email.slice(0, 2)}****om`)).toBeVisible();
      await expect(page.getByRole("banner").getByRole("link", { name: /^Account menu/ })).toBeVisible();
      await expect(page.getByRole("banner").getByRole("link", { name: "Log in" })).toHaveCount(0);

      // Support button: enabled until used, then "already requested"; the request reaches the desk's mailbox.
      await page.getByRole("button", { name: "Request support" }).click();
      await expect(page.getByText("Your request has reached our support team.")).toBeVisible();
      await expect(page.getByRole("button", { name: "Already requested" })).toBeDisabled();
      const desk = await fetch(`${ENGINE_URL}/api/mjkj-web/dev/mailbox?destination=support%40meridian.example`, { headers: adminHeaders() }).then((r) =>
        r.json(),
      );
      expect((desk.data as Array<{ body: string }>).filter((mail) => mail.body.includes(`Reach them at: ${email}`))).toHaveLength(1);

      // Transaction password: a wrong length is refused with the spec's message.
      await page.goto("/account/center/trade-pwd");
      await page.getByLabel("Transaction password", { exact: true }).fill("12345");
      await page.getByLabel("Confirm transaction password").fill("12345");
      await page.getByLabel("Verification code").fill("000000");
      await page.getByRole("button", { name: "Save" }).click();
      await expect(page.getByText("The password must be 6 digits long.")).toBeVisible();
      let { code } = await sendCodeAndRead(page, email);
      await page.getByLabel("Transaction password", { exact: true }).fill("246810");
      await page.getByLabel("Confirm transaction password").fill("246810");
      await page.getByLabel("Verification code").fill(code);
      await page.getByRole("button", { name: "Save" }).click();
      await expect(page).toHaveURL(/\/account\/center\/security$/);
      await expect(page.getByText("Transaction password saved.")).toBeVisible();

      // Anti-phishing code, then the next e-mail carries it.
      await page.goto("/account/center/security/setting/anti-code");
      await page.getByRole("textbox", { name: "Anti-phishing code" }).fill("BLUEFOX7");
      ({ code } = await sendCodeAndRead(page, email));
      await page.getByLabel("Verification code").fill(code);
      await page.getByRole("button", { name: "Save" }).click();
      await expect(page.getByText("Anti-phishing code saved.")).toBeVisible();
      await page.goto("/account/center/trade-pwd");
      const next = await sendCodeAndRead(page, email);
      expect(next.body).toContain("BLUEFOX7");

      // A second device logs in; the first deletes it, and its session ends.
      const other = await browser.newContext({ javaScriptEnabled });
      const otherPage = await other.newPage();
      await logIn(otherPage, email, "first123");
      await page.goto("/account/center/device-management");
      await expect(page.getByRole("row")).toHaveCount(3); // header + 2 devices
      await page.getByRole("button", { name: /^Delete / }).click();
      await expect(page.getByText("The device was logged out.")).toBeVisible();
      await otherPage.goto("/account/center/info");
      await expect(otherPage).toHaveURL(/\/user\/login|\/home\/index/);
      await other.close();

      // Change the login password: every session ends, the old password stops working.
      const oldCookies = await page.context().cookies();
      await page.goto("/account/center/login-pwd");
      await page.getByLabel("Current password").fill("first123");
      await page.getByLabel("New password", { exact: true }).fill("second456");
      await page.getByLabel("Confirm new password").fill("second456");
      await page.getByRole("button", { name: "Change password" }).click();
      await expect(page).toHaveURL(/\/user\/login$/);
      await expect(page.getByText("Password changed. Please log in with your new password.")).toBeVisible();
      const stale = await browser.newContext({ javaScriptEnabled });
      await stale.addCookies(oldCookies);
      const stalePage = await stale.newPage();
      await stalePage.goto("/account/center/info");
      await expect(stalePage).toHaveURL(/\/home\/index$/);
      await expect(stalePage.getByText("Your session has ended. Please log in again.")).toBeVisible();
      await stale.close();

      await page.getByLabel("E-mail").fill(email);
      await page.getByLabel("Password", { exact: true }).fill("first123");
      await page.getByRole("button", { name: "Log in", exact: true }).click();
      await expect(page.getByText("Incorrect account or password.")).toBeVisible();
      await logIn(page, email, "second456");

      // Log out from the member menu.
      await logOutFromMenu(page);
      await expect(page).toHaveURL(/\/home\/index$/);
      await expect(page.getByRole("banner").getByRole("link", { name: "Log in" })).toBeVisible();
    });
  });
}

test("the register form explains bad input without JavaScript and keeps what was typed", async ({ browser }) => {
  const context = await browser.newContext({ javaScriptEnabled: false });
  const page = await context.newPage();
  await page.goto("/user/register?invite_code=ABCD1234");
  await expect(page.getByLabel("Invite code (optional)")).toHaveValue("ABCD1234");
  await page.getByLabel("E-mail").fill("not-an-email");
  await page.getByRole("button", { name: "Create account" }).click();
  await expect(page.getByText("Enter a valid e-mail address.")).toBeVisible();
  await expect(page.getByText("Enter the 6-digit code.")).toBeVisible();
  await expect(page.getByLabel("E-mail")).toHaveValue("not-an-email");
  await expect(page.getByLabel("E-mail")).toHaveAttribute("aria-invalid", "true");
  await page.goto("/user/register?type=phone");
  await page.getByLabel("Country or region").selectOption({ label: "Germany +49" });
  await page.getByLabel("Phone").fill("123");
  await page.getByRole("button", { name: "Send code" }).click();
  await expect(page.getByText("Invalid phone number format.")).toBeVisible();
  await context.close();
});

test("with JavaScript the register form checks in the browser once it is used, and a refused form is not posted (decision 037)", async ({ page }) => {
  const posts: string[] = [];
  const checks: string[] = [];
  page.on("request", (request) => {
    if (request.method() === "POST") posts.push(request.url());
    if (/\/check-form-[A-Z0-9]+\.js$/.test(request.url())) checks.push(request.url());
  });
  await page.goto("/user/register");
  await page.waitForLoadState("networkidle");
  // The page came alive without the form's checks: they come with the first use of the form.
  expect(checks).toEqual([]);
  const email = page.getByLabel("E-mail");
  await email.fill("not-an-email");
  await email.press("Tab");
  await expect(page.getByText("Enter a valid e-mail address.")).toBeVisible();
  await expect(email).toHaveAttribute("aria-invalid", "true");
  expect(checks).toHaveLength(1);

  // Submitted as it is (the press leaves the code field: its own error waits for the release, so the
  // button does not move under the pointer): every field at fault says so, the focus goes to the
  // first, nothing is posted.
  await page.getByRole("button", { name: "Create account" }).click();
  await expect(page.getByText("Enter the 6-digit code.")).toBeVisible();
  await expect(email).toBeFocused();
  // Typing again checks again: the e-mail's error goes as soon as it is a valid address.
  await email.fill("member@example.com");
  await expect(page.getByText("Enter a valid e-mail address.")).toHaveCount(0);
  await expect(email).not.toHaveAttribute("aria-invalid", "true");
  expect(posts).toEqual([]);
});

test("on a slow connection a form pressed twice before its checks arrived is posted once (decision 037)", async ({ page }) => {
  const email = uniqueEmail("slowchecks");
  await register(page, email, "pass1234");
  await logOutFromMenu(page);
  await expect(page.getByRole("banner").getByRole("link", { name: "Log in" })).toBeVisible();

  // A new page, whose form checks take 1.5 s to arrive.
  const posts: string[] = [];
  page.on("request", (request) => {
    if (request.method() === "POST" && new URL(request.url()).pathname.startsWith("/user/login")) posts.push(request.url());
  });
  await page.route(/\/check-form-[A-Z0-9]+\.js$/, async (route) => {
    await new Promise((resolve) => setTimeout(resolve, 1_500));
    await route.continue();
  });
  await page.goto("/user/login");
  await page.getByLabel("E-mail").fill(email);
  await page.getByLabel("Password", { exact: true }).fill("pass1234");
  await page.getByRole("button", { name: "Log in", exact: true }).dblclick();
  await expect(page).toHaveURL(/\/account\/center\/info$/);
  expect(posts).toHaveLength(1);
});

test("pages for members send visitors to the login page and back", async ({ page }) => {
  const email = uniqueEmail("back");
  await page.goto("/account/center/security");
  await expect(page).toHaveURL(/\/user\/login\?redirectTo=%2Faccount%2Fcenter%2Fsecurity$/);
  await register(page, email, "pass1234");
  await logOutFromMenu(page);
  await expect(page.getByText("You have logged out.")).toBeVisible();
  await page.goto("/account/center/security");
  await page.getByLabel("E-mail").fill(email);
  await page.getByLabel("Password", { exact: true }).fill("pass1234");
  await page.getByRole("button", { name: "Log in", exact: true }).click();
  await expect(page).toHaveURL(/\/account\/center\/security$/);
});

test.describe("accessibility of member pages", () => {
  test("login, register, info, security and devices have no serious axe violations", async ({ page }) => {
    await page.goto("/user/login");
    await expectNoSeriousA11yViolations(page);
    await page.goto("/user/register");
    await expectNoSeriousA11yViolations(page);
    await register(page, uniqueEmail("axe"), "pass1234");
    for (const path of [
      "/account/center/info",
      "/account/center/security",
      "/account/center/device-management",
      "/account/center/trade-pwd",
      "/account/center/login-pwd",
    ]) {
      await page.goto(path);
      await expectNoSeriousA11yViolations(page);
    }
  });
});
