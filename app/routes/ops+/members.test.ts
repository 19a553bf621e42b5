import type { SubmissionResult } from "@conform-to/react";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { MemberProfile, MemberSummary } from "#protocol/endpoints/members-admin";
import { signInOperator, type SignedInOperator } from "~/testing/ops";
import { Browser } from "~/testing/route-call";
import { startTestExchange, TEST_PASSWORD, type TestExchange } from "~/testing/test-exchange";
import * as memberRoute from "./members.$uid";
import * as membersRoute from "./members._index";

/** The console's members pages (issue 29) against a real engine: search, a member's page, freeze and the authenticator's reset by role. */
let exchange: TestExchange;
let compliance: SignedInOperator;
let support: SignedInOperator;
let markets: SignedInOperator;
beforeAll(async () => {
  exchange = await startTestExchange();
  compliance = await signInOperator(exchange, { email: "compliance-m@ops.example", role: "compliance" });
  support = await signInOperator(exchange, { email: "support-m@ops.example", role: "support" });
  markets = await signInOperator(exchange, { email: "markets-m@ops.example", role: "markets" });
});
afterAll(() => exchange?.close());

const PAGE = "/ops/members";
interface Refused {
  intent: string;
  result: SubmissionResult<string[]>;
}

let count = 0;
async function newMember() {
  const email = `members-page-${++count}@example.com`;
  const uid = await exchange.register(email);
  return { uid, email };
}

describe("the members pages", () => {
  it("find a member by uid and by the start of the e-mail; a too long search is refused with its message", async () => {
    const { uid, email } = await newMember();
    const byUid = await support.browser.get(membersRoute.loader, `${PAGE}?q=${uid}`);
    expect(byUid.status).toBe(200);
    expect((byUid.data as { members: MemberSummary[] }).members.map((m) => m.uid)).toEqual([uid]);
    const byEmail = await support.browser.get(membersRoute.loader, `${PAGE}?q=${encodeURIComponent(email.slice(0, 16).toUpperCase())}`);
    expect((byEmail.data as { members: MemberSummary[] }).members.map((m) => m.uid)).toContain(uid);
    const long = await support.browser.get(membersRoute.loader, `${PAGE}?q=${"x".repeat(101)}`);
    expect(long.status).toBe(200);
    expect(long.data).toMatchObject({ error: "ops.errors.search_long", members: [] });
    const newest = await support.browser.get(membersRoute.loader, PAGE);
    expect((newest.data as { members: MemberSummary[] }).members[0]?.uid).toBe(uid);
  });

  it("show a member's page; an unknown or malformed uid is a 404, and a role without members is refused", async () => {
    const { uid, email } = await newMember();
    const page = await support.browser.get(memberRoute.loader, `${PAGE}/${uid}`, { uid });
    expect(page.status).toBe(200);
    const data = page.data as { member: MemberProfile; mayFreeze: boolean; mayReset: boolean };
    expect(data.member).toMatchObject({ uid, email, frozenAt: null, googleBound: false });
    expect([data.mayFreeze, data.mayReset]).toEqual([false, true]);
    expect((await support.browser.get(memberRoute.loader, `${PAGE}/99999998`, { uid: "99999998" })).status).toBe(404);
    expect((await support.browser.get(memberRoute.loader, `${PAGE}/../x`, { uid: "../x" })).status).toBe(404);
    expect((await markets.browser.get(memberRoute.loader, `${PAGE}/${uid}`, { uid })).status).toBe(403);
  });

  it("freeze a member with a reason (the member is logged out and refused), refuse without one, and unfreeze", async () => {
    const { uid, email } = await newMember();
    const member = new Browser();
    await member.logIn(email, TEST_PASSWORD);
    const post = (operator: SignedInOperator, form: Record<string, string>) => operator.browser.post(memberRoute.action, `${PAGE}/${uid}`, form, { uid });

    const noReason = await post(compliance, { intent: "freeze", reason: " no " });
    expect(noReason.status).toBe(400);
    expect((noReason.data as Refused).result.error?.reason).toEqual(["ops.errors.member_reason"]);
    expect((await post(support, { intent: "freeze", reason: "Reported stolen by phone." })).status).toBe(403);
    expect((await post(compliance, { intent: "melt", reason: "Reported stolen by phone." })).status).toBe(400);

    const frozen = await post(compliance, { intent: "freeze", reason: "Reported stolen by phone." });
    expect(frozen.status).toBe(302);
    expect(await compliance.browser.toast()).toMatchObject({ type: "success", key: "ops.members.done_freeze", values: { uid } });
    const twice = await post(compliance, { intent: "freeze", reason: "Reported stolen by phone." });
    expect(twice.status).toBe(409);
    expect((twice.data as Refused).result.error?.[""]).toEqual(["ops.members.done_already"]);
    const view = (await compliance.browser.get(memberRoute.loader, `${PAGE}/${uid}`, { uid })).data as { member: MemberProfile };
    expect(view.member).toMatchObject({ frozenReason: "Reported stolen by phone.", devices: [] });
    await expect(new Browser().logIn(email, TEST_PASSWORD)).rejects.toThrow(/frozen/);

    expect((await post(compliance, { intent: "unfreeze", reason: "Owner verified on a video call." })).status).toBe(302);
    await new Browser().logIn(email, TEST_PASSWORD);
  });

  it("reset the authenticator only when one is set", async () => {
    const { uid } = await newMember();
    const reset = await support.browser.post(memberRoute.action, `${PAGE}/${uid}`, { intent: "reset_2fa", reason: "Lost phone, identity checked." }, { uid });
    expect(reset.status).toBe(409);
  });
});
