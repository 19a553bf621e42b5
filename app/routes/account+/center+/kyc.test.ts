import { randomBytes } from "node:crypto";
import { readdir } from "node:fs/promises";
import type { SubmissionResult } from "@conform-to/react";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { endpoints } from "#protocol/endpoints";
import { MAX_ID_IMAGE_BYTES } from "#protocol/limits";
import { Browser } from "~/testing/route-call";
import { startTestExchange, TEST_PASSWORD, type TestExchange } from "~/testing/test-exchange";
import * as kycRoute from "./kyc";

/** The identity verification form (spec §3 KYC) against a real engine: what a post leaves on its disk. */
let exchange: TestExchange;
beforeAll(async () => {
  exchange = await startTestExchange();
});
afterAll(() => exchange?.close());

const KYC = "/account/center/kyc";
const PNG = Buffer.from(
  "89504e470d0a1a0a0000000d49484452000000010000000108060000001f15c4890000000d49444154789c6360f8ffff3f0005fe02fea7d6a4c80000000049454e44ae426082",
  "hex",
);
/** A PNG of `size` bytes unlike any other (the engine reads the type from the first bytes and stores files by digest). */
const png = (name: string, size = PNG.length + 16) => new File([PNG, randomBytes(size - PNG.length)], name, { type: "image/png" });

/** The form as the browser posts it; `front`, `back` or `hand` may be replaced. */
function kycForm(files: Partial<Record<"front" | "back" | "hand", File>> = {}): FormData {
  const form = new FormData();
  for (const field of ["front", "back", "hand"] as const) form.set(field, files[field] ?? png(`${field}.png`));
  form.set("phone", "+4915112345678");
  return form;
}

/** The files in the engine's uploads folder, every member's. */
async function storedFiles(): Promise<number> {
  const entries = await readdir(exchange.uploadDir, { recursive: true, withFileTypes: true }).catch(() => []);
  return entries.filter((entry) => entry.isFile()).length;
}

let members = 0;
async function loggedInMember() {
  const email = `kyc-${++members}@example.com`;
  await exchange.register(email);
  const browser = new Browser();
  await browser.logIn(email, TEST_PASSWORD);
  return browser;
}
const kycStatusOf = async (browser: Browser) =>
  (await exchange.api.data(endpoints.kycStatus, { params: { key: "yhrzxx" } }, await exchange.as(browser))).status;
const formErrorsOf = (data: unknown) => (data as { result: SubmissionResult<string[]> }).result.error?.[""];

describe("identity verification form", () => {
  it("submits the three images and the phone", async () => {
    const browser = await loggedInMember();
    const before = await storedFiles();
    const answer = await browser.post(kycRoute.action, KYC, kycForm());
    expect(answer.location).toBe(KYC);
    expect(await browser.toast()).toMatchObject({ type: "success", key: "account.kyc.submitted" });
    expect(await kycStatusOf(browser)).toBe(1);
    expect(await storedFiles()).toBe(before + 3);
  });

  it("refuses the demo member's submission with the engine's reason, and stores no file", async () => {
    const browser = await loggedInMember();
    exchange.services.demoMemberId = (await exchange.api.data(endpoints.memberInfo, {}, await exchange.as(browser))).id;
    try {
      const before = await storedFiles();
      const answer = await browser.post(kycRoute.action, KYC, kycForm());
      expect(answer.status).toBe(400);
      expect(await storedFiles()).toBe(before);
      expect(formErrorsOf(answer.data)).toEqual(["text:The demo member cannot upload files or verify its identity. Register your own account to do so."]);
      expect(await kycStatusOf(browser)).toBe(0);
    } finally {
      exchange.services.demoMemberId = null;
    }
  });

  it("refuses a submission while one is in review, and stores no file", async () => {
    const browser = await loggedInMember();
    await browser.post(kycRoute.action, KYC, kycForm());
    await browser.toast();
    const before = await storedFiles();
    // The page offers no form now; a post made anyway (another tab, a script) is refused.
    const answer = await browser.post(kycRoute.action, KYC, kycForm());
    expect(answer.status).toBe(400);
    expect(await storedFiles()).toBe(before);
    expect(formErrorsOf(answer.data)).toEqual(["text:Your identity verification is already in review or approved."]);
  });

  it("refuses an image over 5 MB before calling the engine, and stores no file", async () => {
    const browser = await loggedInMember();
    const before = await storedFiles();
    const answer = await browser.post(kycRoute.action, KYC, kycForm({ back: png("back.png", MAX_ID_IMAGE_BYTES + 1) }));
    expect(answer.status).toBe(400);
    // The web tier's own text key: the engine was not asked (its refusal would come as its words).
    expect(formErrorsOf(answer.data)).toEqual(["validation.id_image_size"]);
    expect(await storedFiles()).toBe(before);
    expect(await kycStatusOf(browser)).toBe(0);
  });
});
