import { expect, test, type Locator, type Page } from "@playwright/test";
import { createMember, logIn } from "./spot-support";
import { expectNoSeriousA11yViolations } from "./support";

/**
 * The KYC page's ID image fields (`app/components/image-upload.tsx`): a drop box over the real
 * file input. With JavaScript a chosen image shows as a thumbnail with its name and size, and a
 * file too large or not an image is refused at once with the server's message; without it the
 * box says an image is chosen and the form posts as before (security.spec.ts submits it both ways).
 */

/** A real PNG of `width` × `height` drawn by the page (an ID card's colours, so the thumbnail shows something). */
async function drawnPng(page: Page, width: number, height: number): Promise<Buffer> {
  const bytes = await page.evaluate(
    async ([w, h]) => {
      const canvas = new OffscreenCanvas(w, h);
      const g = canvas.getContext("2d")!;
      const gradient = g.createLinearGradient(0, 0, w, h);
      gradient.addColorStop(0, "#2d6cdf");
      gradient.addColorStop(1, "#8fd3f4");
      g.fillStyle = gradient;
      g.fillRect(0, 0, w, h);
      g.fillStyle = "#f5f5f5";
      g.fillRect(w * 0.06, h * 0.2, w * 0.28, h * 0.6);
      g.fillStyle = "rgba(255,255,255,0.85)";
      for (let i = 0; i < 4; i++) g.fillRect(w * 0.42, h * (0.25 + i * 0.14), w * (0.5 - i * 0.08), h * 0.06);
      const blob = await canvas.convertToBlob({ type: "image/png" });
      return Array.from(new Uint8Array(await blob.arrayBuffer()));
    },
    [width, height] as const,
  );
  return Buffer.from(bytes);
}

const png = (name: string, buffer: Buffer) => ({ name, mimeType: "image/png", buffer });

/** The visible box of a file field: the element after the (transparent) input. */
const face = (input: Locator) => input.locator("xpath=following-sibling::*[1]");

async function expectRefused(page: Page, input: Locator, message: string) {
  await expect(page.getByText(message)).toBeVisible();
  await expect(input).toHaveAttribute("aria-invalid", "true");
  expect(await input.evaluate((el: HTMLInputElement) => el.files?.length ?? 0)).toBe(0);
  const describedBy = (await input.getAttribute("aria-describedby"))!.split(" ");
  const errorId = describedBy.find((id) => id.endsWith("-error"))!;
  await expect(page.locator(`[id="${errorId}"]`)).toHaveText(message);
}

async function noWiderThanWindow(page: Page) {
  const { scrollWidth, innerWidth } = await page.evaluate(() => ({ scrollWidth: document.documentElement.scrollWidth, innerWidth: window.innerWidth }));
  expect(scrollWidth).toBeLessThanOrEqual(innerWidth + 1);
}

test.describe("KYC image upload, JavaScript on", () => {
  for (const theme of ["theme-night", "theme-day"] as const) {
    test(`previews a chosen image, refuses a large or non-image file, keeps a focus ring (${theme})`, async ({ page, context }, testInfo) => {
      await context.addCookies([{ name: "theme", value: Buffer.from(JSON.stringify(theme)).toString("base64"), url: "http://127.0.0.1" }]);
      const member = await createMember(`kyc-up-${theme}`);
      await logIn(page, member.email, member.password, "/account/center/kyc");
      const front = page.getByLabel("ID front");
      const back = page.getByLabel("ID back");
      const hand = page.getByLabel("ID in hand");

      // The empty box: the prompt and the files accepted, a target well over 24 px.
      await expect(face(front)).toContainText("Choose an image or drop it here");
      await expect(face(front)).toContainText("JPG, JPEG, PNG, BMP or GIF, at most 5 MB");
      const box = (await front.boundingBox())!;
      expect(box.width).toBeGreaterThanOrEqual(24);
      expect(box.height).toBeGreaterThanOrEqual(24);

      const image = await drawnPng(page, 640, 400);
      await front.setInputFiles(png("passport-front.png", image));
      const preview = page.getByRole("img", { name: "Preview: ID front" });
      await expect(preview).toBeVisible();
      await expect.poll(() => preview.evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth)).toBe(640);
      await expect(face(front)).toContainText("passport-front.png");
      await expect(face(front)).toContainText(/\d+(\.\d)? KB/);
      await expect(face(front)).toContainText("Change");
      await expect(front).not.toHaveAttribute("aria-invalid", "true");
      const fileInfo = (await front.getAttribute("aria-describedby"))!;
      await expect(page.locator(`[id="${fileInfo}"]`)).toContainText("passport-front.png");

      // A renamed text file and a 6 MB image: refused here with the server's own messages.
      await back.setInputFiles(png("back.png", Buffer.from("just text, renamed to .png")));
      await expectRefused(page, back, "Only JPG, JPEG, PNG, BMP or GIF images are accepted.");
      await hand.setInputFiles(png("hand.png", Buffer.concat([image, Buffer.alloc(6 * 1024 * 1024)])));
      await expectRefused(page, hand, "An image may be at most 5 MB.");
      await expectNoSeriousA11yViolations(page);

      // The keyboard's focus shows on the box.
      await page.getByLabel("Phone number").click();
      await page.keyboard.press("Shift+Tab");
      await expect(hand).toBeFocused();
      expect(await face(hand).evaluate((el) => [getComputedStyle(el).outlineStyle, getComputedStyle(el).outlineWidth])).toEqual(["solid", "2px"]);

      // Choosing again replaces the refusal with the preview, and the old preview's URL is let go.
      const firstUrl = (await preview.getAttribute("src"))!;
      await back.setInputFiles(png("back.png", image));
      await expect(page.getByRole("img", { name: "Preview: ID back" })).toBeVisible();
      await expect(page.getByText("Only JPG, JPEG, PNG, BMP or GIF images are accepted.")).toBeHidden();
      await expect(back).not.toHaveAttribute("aria-invalid", "true");
      await front.setInputFiles(png("front-2.png", image));
      await expect(face(front)).toContainText("front-2.png");
      const revoked = await page.evaluate(
        (url) =>
          fetch(url).then(
            () => false,
            () => true,
          ),
        firstUrl,
      );
      expect(revoked, "the replaced preview's object URL is revoked").toBe(true);

      for (const width of [390, 1440]) {
        await page.setViewportSize({ width, height: 1100 });
        await noWiderThanWindow(page);
        await page.getByRole("heading", { name: "Verify your identity" }).scrollIntoViewIfNeeded();
        const shot = testInfo.outputPath(`kyc-${width}-${theme.replace("theme-", "")}.png`);
        await page.screenshot({ path: shot, fullPage: true });
        await testInfo.attach(`kyc at ${width} px, ${theme}`, { path: shot, contentType: "image/png" });
      }
    });
  }
});

test.describe("KYC image upload, JavaScript off", () => {
  test.use({ javaScriptEnabled: false });

  test("the box says an image is chosen and the form posts it", async ({ page }, testInfo) => {
    const member = await createMember("kyc-up-nojs");
    await logIn(page, member.email, member.password, "/account/center/kyc");
    const PNG = Buffer.from(
      "89504e470d0a1a0a0000000d49484452000000010000000108060000001f15c4890000000d49444154789c6360f8ffff3f0005fe02fea7d6a4c80000000049454e44ae426082",
      "hex",
    );
    const front = page.getByLabel("ID front");
    await expect(face(front)).toContainText("Choose an image or drop it here");
    await expect(face(front).getByText("Image chosen")).toBeHidden();
    await front.setInputFiles(png("front.png", PNG));
    await expect(face(front).getByText("Image chosen")).toBeVisible();
    await expect(face(front).getByText("Choose an image or drop it here")).toBeHidden();
    await page.setViewportSize({ width: 390, height: 1100 });
    await noWiderThanWindow(page);
    const shot = testInfo.outputPath("kyc-390-nojs.png");
    await page.screenshot({ path: shot, fullPage: true });
    await testInfo.attach("kyc at 390 px without JavaScript", { path: shot, contentType: "image/png" });

    await page.getByLabel("ID back").setInputFiles(png("back.png", PNG));
    await page.getByLabel("ID in hand").setInputFiles(png("hand.png", PNG));
    await page.getByLabel("Phone number").fill("+4915112345678");
    await page.getByRole("button", { name: "Submit for review" }).click();
    await expect(page.getByTestId("kyc-state")).toHaveText("In review");
  });
});
