import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { endpoints } from "#protocol/endpoints";
import type { ProjectView, ReturnApplicationView } from "#protocol/endpoints/subscription";
import { readFormError } from "~/lib/forms/form-error";
import { signInOperator, type SignedInOperator } from "~/testing/ops";
import { Browser } from "~/testing/route-call";
import { startTestExchange, TEST_PASSWORD, type TestExchange } from "~/testing/test-exchange";
import type { PayRefusal, ProjectRefusal } from "./__subscriptions.server";
import * as subscriptionsRoute from "./subscriptions";

/**
 * The console's subscriptions page (issue 32, decision 053) against a real engine: who sees the
 * projects and the return applications, who adds and changes projects, who pays returns, and
 * what is refused.
 */
let exchange: TestExchange;
let markets: SignedInOperator;
let finance: SignedInOperator;
let support: SignedInOperator;
beforeAll(async () => {
  exchange = await startTestExchange();
  markets = await signInOperator(exchange, { email: "subs@ops.example", role: "markets", name: "Sam Subscribe" });
  finance = await signInOperator(exchange, { email: "finance-s@ops.example", role: "finance", name: "Fay Finance" });
  support = await signInOperator(exchange, { email: "support-sub@ops.example", role: "support" });
});
afterAll(() => exchange?.close());

const PAGE = "/ops/subscriptions";
const HOUR = 3_600_000;
type Project = ProjectView & { subscriptions: number };
type Application = ReturnApplicationView;
type Page = { projects: Project[]; returns: Application[] | null; mayChange: boolean; mayPay: boolean };

/** A time as a `datetime-local` input sends it, read as UTC. */
const local = (ms: number) => new Date(ms).toISOString().slice(0, 19);
const projects = () => exchange.api.data(endpoints.opsSubscriptionProjects, {}, exchange.operator);
const project = async (id: string) => (await projects()).find((p) => p.projectId === id);
const refusalOf = (answer: { data: unknown }) => (answer.data as { refusal: ProjectRefusal }).refusal;

describe("the console's subscriptions page", () => {
  it("lists every project to a markets operator, without the return applications (not their desk)", async () => {
    const page = (await markets.browser.get(subscriptionsRoute.loader, PAGE)).data as Page;
    expect(page).toMatchObject({ mayChange: true, mayPay: false, returns: null });
    expect(page.projects.map((p) => p.projectId).sort()).toEqual(["NXA-R1", "NXA-R2", "NXA-R3", "TOP5-R1"]);
    expect(page.projects.find((p) => p.projectId === "NXA-R3")).toMatchObject({ type: 1, coin: "NXA", payCoin: "USDT", phase: "upcoming", subscriptions: 0 });
    expect(page.projects.find((p) => p.projectId === "TOP5-R1")).toMatchObject({ type: 2, phase: "open" });
  });

  it("adds a project with its window read as UTC, changes it before it opens, audited", async () => {
    const start = Math.floor(Date.now() / 1000) * 1000 + 2 * 24 * HOUR;
    const fields = {
      intent: "project",
      form: "new",
      projectId: "TOP5-R9",
      type: "2",
      coin: "top5",
      payCoin: "USDT",
      price: "12.5",
      lot: "0.1",
      supply: "5000",
      minPerMember: "1",
      maxPerMember: "100",
      startAt: local(start),
      endAt: local(start + 3 * 24 * HOUR),
      returnByApplication: "on",
    };
    const added = await markets.browser.post(subscriptionsRoute.action, PAGE, fields);
    expect(added.status).toBe(302);
    expect(added.location).toBe(PAGE);
    expect(await markets.browser.toast()).toMatchObject({ key: "ops.subscriptions.added", values: { project: "TOP5-R9" } });
    expect(await project("TOP5-R9")).toMatchObject({
      type: 2,
      coin: "TOP5",
      price: "12.5",
      supply: "5000",
      startAt: new Date(start).toISOString(),
      endAt: new Date(start + 3 * 24 * HOUR).toISOString(),
      phase: "upcoming",
      returnByApplication: true,
    });

    // Its row's form: the project named, what is not changed posted as shown.
    const changed = await markets.browser.post(subscriptionsRoute.action, PAGE, { ...fields, form: "TOP5-R9", price: "13", supply: "6000" });
    expect(changed.status).toBe(302);
    expect(await markets.browser.toast()).toMatchObject({ key: "ops.subscriptions.saved", values: { project: "TOP5-R9" } });
    expect(await project("TOP5-R9")).toMatchObject({ price: "13", supply: "6000" });
    const audit = await exchange.api.data(endpoints.opsAudit, { query: { target: "subscription-project:TOP5-R9" } }, exchange.operator);
    expect(audit.rows).toHaveLength(2);

    // A seeded project's times have milliseconds; its form shows them to the second and keeps them.
    const seeded = (await project("NXA-R3"))!;
    const r3 = {
      ...fields,
      form: "NXA-R3",
      projectId: "NXA-R3",
      type: "1",
      coin: "NXA",
      price: "0.08",
      lot: "10",
      supply: "5000000",
      minPerMember: "100",
      maxPerMember: "200000",
    };
    const same = { ...r3, startAt: seeded.startAt.slice(0, 19), endAt: seeded.endAt.slice(0, 19) };
    expect(readFormError(refusalOf(await markets.browser.post(subscriptionsRoute.action, PAGE, same)).error!)).toEqual({ key: "ops.errors.no_change" });
    expect((await markets.browser.post(subscriptionsRoute.action, PAGE, { ...same, price: "0.09" })).status).toBe(302);
    expect(await project("NXA-R3")).toMatchObject({ price: "0.09", startAt: seeded.startAt, endAt: seeded.endAt });

    // Posted again as it is: nothing to change.
    const again = await markets.browser.post(subscriptionsRoute.action, PAGE, { ...fields, form: "TOP5-R9", price: "13", supply: "6000" });
    expect(readFormError(refusalOf(again).error!)).toEqual({ key: "ops.errors.no_change" });
  });

  it("refuses a project with the engine's problem or each field's error, and changes nothing", async () => {
    const before = await projects();
    const start = Date.now() + 24 * HOUR;
    const base = {
      intent: "project",
      form: "new",
      projectId: "NXA-R9",
      type: "1",
      coin: "NXA",
      payCoin: "USDT",
      price: "0.05",
      lot: "10",
      supply: "100000",
      minPerMember: "100",
      maxPerMember: "5000",
      startAt: local(start),
      endAt: local(start + HOUR),
    };
    const post = (fields: Record<string, string>) => markets.browser.post(subscriptionsRoute.action, PAGE, fields);

    // The engine's check: the supply is not a whole number of lots; its problem is the form's error.
    const lots = await post({ ...base, supply: "100005" });
    expect(lots.status).toBe(400);
    expect(refusalOf(lots)).toMatchObject({ projectId: "new", values: { supply: "100005" } });
    expect(readFormError(refusalOf(lots).error!)).toEqual({ text: expect.stringMatching(/whole number of lots/) });

    // An open project no longer changes (its form is not shown; a post is refused by the engine).
    const open = await post({ ...base, form: "NXA-R2", projectId: "NXA-R2" });
    expect(refusalOf(open).projectId).toBe("NXA-R2");
    expect(readFormError(refusalOf(open).error!)).toEqual({ text: expect.stringMatching(/window has opened/) });

    // What the form checks itself, field by field.
    const fields = refusalOf(
      await post({ ...base, projectId: "NXA-R3", type: "3", coin: "n x a", price: "0,05", startAt: local(start), endAt: local(start - HOUR) }),
    ).fields;
    expect(fields).toMatchObject({
      projectId: "ops.subscriptions.project_exists",
      type: "ops.subscriptions.bad_type",
      coin: "ops.subscriptions.bad_coin",
      price: "validation.number.wrong_mark",
      endAt: "ops.subscriptions.end_before_start",
    });
    expect(refusalOf(await post({ ...base, startAt: "2026-02-31T10:00", minPerMember: "9000" })).fields).toEqual({
      startAt: "ops.subscriptions.bad_time",
      minPerMember: "ops.subscriptions.min_above_max",
    });

    expect(await projects()).toEqual(before);
  });

  it("shows the pending return applications to finance, who pays them; a markets operator cannot", async () => {
    // A short project oversubscribed by one member: most of what they paid waits for their application.
    const now = Date.now();
    await exchange.api.data(
      endpoints.adminSubscriptionProject,
      {
        body: {
          projectId: "NXA-RET",
          type: 1,
          coin: "NXA",
          payCoin: "USDT",
          price: "0.5",
          lot: "10",
          supply: "100",
          minPerMember: "10",
          maxPerMember: "1000",
          startAt: new Date(now - 60_000).toISOString(),
          endAt: new Date(now + HOUR).toISOString(),
          returnByApplication: true,
        },
      },
      exchange.operator,
    );
    const email = "subscriber@example.com";
    const uid = await exchange.register(email);
    await exchange.api.data(
      endpoints.adminDeposit,
      { body: { uid, coin: "USDT", account: "funding", amount: "1000", reference: `sub-${uid}` } },
      exchange.operator,
    );
    const member = new Browser();
    await member.logIn(email, TEST_PASSWORD);
    const caller = await exchange.as(member);
    await exchange.api.data(endpoints.subscribe, { body: { projectId: "NXA-RET", quantity: "400", idempotencyKey: "sub-ret-1" } }, caller);
    await exchange.subscriptions.tick(now + HOUR + 1_000);
    expect(await project("NXA-RET")).toMatchObject({ phase: "allotted", subscriptions: 1 });
    const applied = await exchange.api.data(endpoints.returnApply, { body: { idempotencyKey: "ret-apply-1" } }, caller);
    expect(applied.applicationId).toBeTruthy();
    const applicationId = applied.applicationId!;

    const seen = (await finance.browser.get(subscriptionsRoute.loader, PAGE)).data as Page;
    expect(seen).toMatchObject({ mayChange: false, mayPay: true });
    expect(seen.returns).toEqual([expect.objectContaining({ applicationId, uid, amounts: [{ coin: "USDT", amount: "150" }], subscriptions: 1 })]);

    // Markets reads projects, not returns: its post is refused and nothing is paid.
    const denied = await markets.browser.post(subscriptionsRoute.action, PAGE, { intent: "pay", applicationId });
    expect(denied.status).toBe(403);
    expect(readFormError((denied.data as { payRefusal: PayRefusal }).payRefusal.error)).toEqual({ key: "ops.errors.role_denied" });
    expect(await exchange.api.data(endpoints.opsReturnApplications, {}, exchange.operator)).toHaveLength(1);

    // Finance cannot change projects either.
    const notMarkets = await finance.browser.post(subscriptionsRoute.action, PAGE, { intent: "project", form: "new", projectId: "X-1" });
    expect(notMarkets.status).toBe(403);

    const paid = await finance.browser.post(subscriptionsRoute.action, PAGE, { intent: "pay", applicationId });
    expect(paid.status).toBe(302);
    expect(await finance.browser.toast()).toMatchObject({ key: "ops.subscriptions.paid", values: { id: applicationId, member: uid, amounts: "150 USDT" } });
    expect(((await finance.browser.get(subscriptionsRoute.loader, PAGE)).data as Page).returns).toEqual([]);
    const status = await exchange.api.data(endpoints.returnApplyQuery, {}, caller);
    expect(status.status).toBe(1);

    // Paid already: a second post is refused with the engine's words.
    const twice = await finance.browser.post(subscriptionsRoute.action, PAGE, { intent: "pay", applicationId });
    expect(twice.status).toBe(400);
    expect((twice.data as { payRefusal: PayRefusal }).payRefusal.applicationId).toBe(applicationId);
  });

  it("is not shown to a role without markets.read", async () => {
    const answer = await support.browser.get(subscriptionsRoute.loader, PAGE);
    expect(answer.status).toBe(403);
    const post = await support.browser.post(subscriptionsRoute.action, PAGE, { intent: "pay", applicationId: "A1" });
    expect(post.status).toBe(403);
  });
});
