import { execFile } from "node:child_process";
import { promisify } from "node:util";
import { expect, test, type Page } from "@playwright/test";
import { totpCode } from "../../engine/core/members/totp";
import { ENGINE_URL, expectNoSeriousA11yViolations, lastMailId, latestCode, logOutFromMenu, uniqueEmail } from "./support";

const run = promisify(execFile);
const PNG = Buffer.from(
  "89504e470d0a1a0a0000000d49484452000000010000000108060000001f15c4890000000d49444154789c6360f8ffff3f0005fe02fea7d6a4c80000000049454e44ae426082",
  "hex",
);

async function registerAndLand(page: Page, email: string, password: string) {
  await page.goto("/user/register");
  await page.getByLabel("E-mail").fill(email);
  const before = await lastMailId(email);
  await page.getByRole("button", { name: "Send code" }).click();
  const { code } = await latestCode(email, before);
  await page.getByLabel("Verification code").fill(code);
  await page.getByLabel("Password", { exact: true }).fill(password);
  await page.getByRole("button", { name: "Create account" }).click();
  await expect(page).toHaveURL(/\/account\/center\/info$/);
}

async function sendSecurityCode(page: Page, email: string) {
  const before = await lastMailId(email);
  await page.getByRole("button", { name: /Send code|Send again/ }).click();
  return (await latestCode(email, before)).code;
}

for (const javaScriptEnabled of [true, false]) {
  test.describe(`Google 2FA and KYC, JavaScript ${javaScriptEnabled ? "on" : "off"}`, () => {
    test.use({ javaScriptEnabled });

    test("binds Google 2FA and logs in with the Google step", async ({ page }) => {
      const email = uniqueEmail(javaScriptEnabled ? "g-js" : "g-nojs");
      await registerAndLand(page, email, "pass1234");
      await page.goto("/account/center/security/setting/google");
      await expect(page.getByRole("img", { name: /QR code/ })).toBeVisible();
      const secret = (await page.getByTestId("google-secret").textContent())!.trim();
      const code = await sendSecurityCode(page, email);
      await page.getByLabel("Google Authenticator code").fill(totpCode(secret, Date.now()));
      await page.getByLabel("Verification code").fill(code);
      await page.getByRole("button", { name: "Bind" }).click();
      await expect(page).toHaveURL(/\/account\/center\/security$/);
      await expect(page.getByText("Google Authenticator is on.")).toBeVisible();

      await logOutFromMenu(page);
      await expect(page).toHaveURL(/\/home\/index$/);

      await page.goto("/user/login");
      await page.getByLabel("E-mail").fill(email);
      await page.getByLabel("Password", { exact: true }).fill("pass1234");
      await page.getByRole("button", { name: "Log in", exact: true }).click();
      await expect(page.getByLabel("Google Authenticator code")).toBeVisible();
      await page.getByLabel("Password", { exact: true }).fill("pass1234");
      await page.getByLabel("Google Authenticator code").fill(totpCode(secret, Date.now()));
      await page.getByRole("button", { name: "Log in", exact: true }).click();
      await expect(page).toHaveURL(/\/account\/center\/info$/);
    });

    test("binds a phone with a code sent to it", async ({ page }) => {
      const email = uniqueEmail(javaScriptEnabled ? "p-js" : "p-nojs");
      await registerAndLand(page, email, "pass1234");
      await page.goto("/account/center/security/setting/phone");
      const phone = `151${String(Math.floor(Math.random() * 1e8)).padStart(8, "0")}`;
      await page.getByLabel("Country or region").selectOption({ label: "Germany +49" });
      await page.getByLabel("Phone", { exact: true }).fill(phone);
      const before = await lastMailId(`+49 ${phone}`);
      await page.getByRole("button", { name: "Send code" }).click();
      const { code } = await latestCode(`+49 ${phone}`, before);
      await page.getByLabel("Verification code").fill("999999" === code ? "000000" : "999999");
      await page.getByRole("button", { name: "Bind" }).click();
      await expect(page.getByText("The verification code is wrong.")).toBeVisible();
      await page.getByLabel("Verification code").fill(code);
      await page.getByRole("button", { name: "Bind" }).click();
      await expect(page.getByText("Phone bound.")).toBeVisible();
      await page.goto("/account/center/security/setting/phone");
      await expect(page.getByText(`Bound to +49 ${phone.slice(0, 3)}****${phone.slice(-4)}`)).toBeVisible();
    });

    test("KYC refuses a renamed text file and a 6 MB image, accepts real images, then shows the review", async ({ page }) => {
      const email = uniqueEmail(javaScriptEnabled ? "k-js" : "k-nojs");
      await registerAndLand(page, email, "pass1234");
      const uid = (await page.getByRole("main").locator("dd").first().textContent())!.trim();
      await page.goto("/account/center/kyc");
      await expect(page.getByTestId("kyc-state")).toHaveText("Not verified");

      const file = (name: string, buffer: Buffer, mimeType = "image/png") => ({ name, mimeType, buffer });
      await page.getByLabel("ID front").setInputFiles(file("front.png", Buffer.from("just text, renamed to .png")));
      await page.getByLabel("ID back").setInputFiles(file("back.png", PNG));
      await page.getByLabel("ID in hand").setInputFiles(file("hand.png", PNG));
      await page.getByLabel("Phone number").fill("+4915112345678");
      await page.getByRole("button", { name: "Submit for review" }).click();
      await expect(page.getByText("Only JPG, JPEG, PNG, BMP or GIF images are accepted.")).toBeVisible();

      await page.getByLabel("ID front").setInputFiles(file("front.png", Buffer.concat([PNG, Buffer.alloc(6 * 1024 * 1024)])));
      await page.getByLabel("ID back").setInputFiles(file("back.png", PNG));
      await page.getByLabel("ID in hand").setInputFiles(file("hand.png", PNG));
      await page.getByLabel("Phone number").fill("+4915112345678");
      await page.getByRole("button", { name: "Submit for review" }).click();
      await expect(page.getByText("An image may be at most 5 MB.")).toBeVisible();

      await page.getByLabel("ID front").setInputFiles(file("front.png", PNG));
      await page.getByLabel("ID back").setInputFiles(file("back.png", PNG));
      await page.getByLabel("ID in hand").setInputFiles(file("hand.png", PNG));
      await page.getByLabel("Phone number").fill("+4915112345678");
      await page.getByRole("button", { name: "Submit for review" }).click();
      await expect(page.getByTestId("kyc-state")).toHaveText("In review");
      // axe runs inside the page, so only where JavaScript runs.
      if (javaScriptEnabled) await expectNoSeriousA11yViolations(page);

      await run(process.execPath, ["--import", "tsx", "engine/admin-cli.ts", "kyc", "approve", uid], {
        env: { ...process.env, ENGINE_URL, DATA_DIR: process.env.E2E_DATA_DIR },
      });
      await page.reload();
      await expect(page.getByTestId("kyc-state")).toHaveText("Approved");
      await page.goto("/account/center/info");
      await expect(page.getByRole("link", { name: "Approved" })).toBeVisible();
    });
  });
}
