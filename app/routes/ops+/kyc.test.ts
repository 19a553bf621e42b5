import { randomBytes } from "node:crypto";
import type { SubmissionResult } from "@conform-to/react";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { endpoints } from "#protocol/endpoints";
import { KYC_STATUS } from "#protocol/member";
import { signInOperator, type SignedInOperator } from "~/testing/ops";
import { sourceRequestHandler } from "~/testing/request-handler";
import { Browser } from "~/testing/route-call";
import { startTestExchange, TEST_PASSWORD, type TestExchange } from "~/testing/test-exchange";
import * as memberKycRoute from "../account+/center+/kyc";
import * as imageRoute from "./kyc.image.$id";
import * as kycRoute from "./kyc";

/** The console's identity reviews (issue 29, decision 043) against a real engine: who sees, who decides, what a member gets. */
let exchange: TestExchange;
let compliance: SignedInOperator;
let support: SignedInOperator;
let markets: SignedInOperator;
beforeAll(async () => {
  exchange = await startTestExchange();
  compliance = await signInOperator(exchange, { email: "compliance@ops.example", role: "compliance" });
  support = await signInOperator(exchange, { email: "support@ops.example", role: "support" });
  markets = await signInOperator(exchange, { email: "markets@ops.example", role: "markets" });
});
afterAll(() => exchange?.close());

const PAGE = "/ops/kyc";
const PNG = Buffer.from(
  "89504e470d0a1a0a0000000d49484452000000010000000108060000001f15c4890000000d49444154789c6360f8ffff3f0005fe02fea7d6a4c80000000049454e44ae426082",
  "hex",
);
/** A PNG unlike any other (the engine stores files by digest). */
const png = (name: string) => new File([PNG, randomBytes(16)], name, { type: "image/png" });

interface QueuePage {
  queue: Array<{ uid: string; account: string; phone: string; submittedAt: string; images: Array<{ id: string; kind: string }> }>;
  mayReview: boolean;
}
interface Refused {
  id: string;
  decision: string;
  result: SubmissionResult<string[]>;
}

let members = 0;
/** A member who submitted their identity (through the member's own page): in the queue now. */
async function submittedMember() {
  const email = `kyc-review-${++members}@example.com`;
  const uid = await exchange.register(email);
  const browser = new Browser();
  await browser.logIn(email, TEST_PASSWORD);
  const form = new FormData();
  for (const field of ["front", "back", "hand"] as const) form.set(field, png(`${field}.png`));
  form.set("phone", "+4915112345678");
  const answer = await browser.post(memberKycRoute.action, "/account/center/kyc", form);
  expect(answer.location).toBe("/account/center/kyc");
  await browser.toast();
  const kyc = async () => exchange.api.data(endpoints.kycStatus, { params: { key: "yhrzxx" } }, await exchange.as(browser));
  return { uid, email, kyc, status: async () => (await kyc()).status };
}

const queueOf = async (operator: SignedInOperator) => {
  const page = await operator.browser.get(kycRoute.loader, PAGE);
  expect(page.status).toBe(200);
  return page.data as QueuePage;
};

describe("the identity reviews page", () => {
  it("shows a compliance operator the queue, oldest first, with the images; the approval reaches the member", async () => {
    const first = await submittedMember();
    const second = await submittedMember();
    const page = await queueOf(compliance);
    expect(page.mayReview).toBe(true);
    const uids = page.queue.map((item) => item.uid);
    expect(uids.indexOf(first.uid)).toBeGreaterThanOrEqual(0);
    expect(uids.indexOf(first.uid)).toBeLessThan(uids.indexOf(second.uid));
    const item = page.queue.find((one) => one.uid === first.uid)!;
    expect(item).toMatchObject({ account: first.email, phone: "+4915112345678" });
    expect(item.images.map((image) => image.kind)).toEqual(["front", "back", "hand"]);

    // An image, as the thumbnail's link opens it: its bytes, never cached, never sniffed, running nothing.
    const image = await compliance.browser.get(imageRoute.loader, `${PAGE}/image/${item.images[0]!.id}`, { id: item.images[0]!.id });
    expect(image.status).toBe(200);
    expect(image.headers.get("content-type")).toBe("image/png");
    expect(image.headers.get("cache-control")).toBe("private, no-store");
    expect(image.headers.get("x-content-type-options")).toBe("nosniff");
    expect(image.headers.get("content-security-policy")).toBe("default-src 'none'");
    expect(image.headers.get("x-robots-tag")).toBe("noindex, nofollow");

    const answer = await compliance.browser.post(kycRoute.action, PAGE, { id: first.uid, decision: "approve" });
    expect(answer.status).toBe(302);
    expect(answer.location).toBe(PAGE);
    expect(answer.headers.get("cache-control")).toBe("no-store");
    expect(await compliance.browser.toast()).toMatchObject({ type: "success", key: "ops.kyc.approved", values: { uid: first.uid } });
    expect(await first.status()).toBe(KYC_STATUS.approved);
    expect((await queueOf(compliance)).queue.map((one) => one.uid)).not.toContain(first.uid);

    // A second decision on it (another operator's, a second tab): "decided", and it stays approved.
    const again = await compliance.browser.post(kycRoute.action, PAGE, { id: first.uid, decision: "reject", reason: "Blurred photo" });
    expect(again.status).toBe(409);
    expect((again.data as Refused).result.error?.[""]).toEqual(["ops.errors.decided"]);
    expect(await first.status()).toBe(KYC_STATUS.approved);
  });

  it("rejects with the reason the member reads", async () => {
    const member = await submittedMember();
    const answer = await compliance.browser.post(kycRoute.action, PAGE, { id: member.uid, decision: "reject", reason: "  The ID photo is blurred  " });
    expect(answer.status).toBe(302);
    expect(await compliance.browser.toast()).toMatchObject({ type: "success", key: "ops.kyc.rejected" });
    expect(await member.kyc()).toMatchObject({ status: KYC_STATUS.rejected, reason: "The ID photo is blurred" });
  });

  it("shows a support operator the queue without the forms; a decision posted anyway is the engine's 403 and changes nothing", async () => {
    const member = await submittedMember();
    const page = await queueOf(support);
    expect(page.mayReview).toBe(false);
    expect(page.queue.map((item) => item.uid)).toContain(member.uid);
    const answer = await support.browser.post(kycRoute.action, PAGE, { id: member.uid, decision: "approve" });
    expect(answer.status).toBe(403);
    expect(answer.data as Refused).toMatchObject({ id: member.uid, decision: "approve", result: { error: { "": ["ops.errors.role_denied"] } } });
    expect(await member.status()).toBe(KYC_STATUS.review);
  });

  it("answers bad input with a translated error and changes nothing: no reason, a huge reason, a forged or unknown uid", async () => {
    const member = await submittedMember();
    const post = (form: Record<string, string>) => compliance.browser.post(kycRoute.action, PAGE, form);
    const errorsOf = (data: unknown) => (data as Refused).result.error;

    const noReason = await post({ id: member.uid, decision: "reject", reason: "   " });
    expect(noReason.status).toBe(400);
    expect(errorsOf(noReason.data)).toEqual({ reason: ["ops.errors.reason"] });
    const huge = await post({ id: member.uid, decision: "reject", reason: "x".repeat(20_000) });
    expect(huge.status).toBe(400);
    expect(errorsOf(huge.data)).toEqual({ reason: ["ops.errors.reason_long"] });
    const forged = await post({ id: "../../admin", decision: "approve" });
    expect(forged.status).toBe(400);
    expect(errorsOf(forged.data)).toEqual({ "": ["ops.errors.item"] });
    const notAUid = await post({ id: "12345", decision: "approve" });
    expect(notAUid.status).toBe(400);
    expect(errorsOf(notAUid.data)).toEqual({ "": ["ops.errors.item"] });
    const unknown = await post({ id: "99999999", decision: "approve" });
    expect(unknown.status).toBe(404);
    expect(errorsOf(unknown.data)).toEqual({ "": ["ops.errors.item"] });
    const noDecision = await post({ id: member.uid, decision: "maybe" });
    expect(noDecision.status).toBe(400);
    expect(errorsOf(noDecision.data)).toEqual({ "": ["ops.errors.decision"] });
    expect(await member.status()).toBe(KYC_STATUS.review);
  });

  it("answers an unknown or malformed image id with a 404, and a role without kyc.read with a 403", async () => {
    for (const id of ["99999999", "x", "1".repeat(40)]) {
      const answer = await compliance.browser.get(imageRoute.loader, `${PAGE}/image/${id}`, { id });
      expect([id, answer.status]).toEqual([id, 404]);
    }
    const denied = await markets.browser.get(kycRoute.loader, PAGE);
    expect(denied).toMatchObject({ status: 403, thrown: true });
    expect((await markets.browser.get(imageRoute.loader, `${PAGE}/image/1`, { id: "1" })).status).toBe(403);
  });

  it("sends a browser without a console session to the login, the way back kept", async () => {
    const answer = await new Browser().get(kycRoute.loader, PAGE);
    expect(answer.status).toBe(302);
    expect(answer.location).toBe(`/ops/login?redirectTo=${encodeURIComponent(PAGE)}`);
  });

  it("answers data requests (`?_data=`) of the page and the image without a server error", async () => {
    const handle = await sourceRequestHandler();
    for (const [url, id] of [
      [PAGE, "routes/ops+/kyc"],
      [`${PAGE}/image/x`, "routes/ops+/kyc.image.$id"],
      [`${PAGE}/image/99999999`, "routes/ops+/kyc.image.$id"],
    ] as const) {
      const answer = await handle(
        new Request(`http://localhost${url}?_data=${encodeURIComponent(id)}`, { headers: { cookie: compliance.cookie.split(";")[0]! } }),
      );
      expect([url, answer.status < 500]).toEqual([url, true]);
    }
  });
});
