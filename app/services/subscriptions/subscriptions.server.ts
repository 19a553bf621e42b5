import { parseWithZod } from "@conform-to/zod/v4";
import { data } from "@remix-run/node";
import { decimalMarkOf } from "#protocol/decimal-input";
import { SUBSCRIPTION_STATUSES, type ProjectView, type SubscriptionStatusView } from "#protocol/endpoints/subscription";
import { lotScaleOf, returnApplySchema, subscribeSchema } from "~/lib/forms/subscribe";
import { keyError, refusalError } from "~/lib/forms/form-error";
import { numberFormatOf } from "~/lib/number-format";
import type { Engine, MemberEngine } from "../engine/client.server";
import { engineRefused } from "../platform/form-reply.server";
import { newIdempotencyKey } from "../platform/idempotency.server";
import { loadSite } from "../platform/site.server";
import { redirectWithToast } from "../platform/toast.server";

/** 1: new coins (`/newCurrency`), 2: ETFs (`/etf`); the two share every page (spec §2). */
export type SubscriptionType = 1 | 2;

/** Rows of a records page. */
export const SUBSCRIPTION_PAGE_SIZE = 20;

/** The pages of a type: its projects, and its records at `/list`. */
export function subscriptionPath(type: SubscriptionType): string {
  return type === 2 ? "/etf" : "/newCurrency";
}

const STATUSES: readonly string[] = SUBSCRIPTION_STATUSES;

function pageOf(url: URL): number {
  const n = Number.parseInt(url.searchParams.get("page") ?? "1", 10);
  return Number.isFinite(n) && n >= 1 && n <= 100_000 ? n : 1;
}

/** What all subscriptions have asked, in percent of the supply (more than 100 when oversubscribed), two decimals. */
export function askedPercent(p: Pick<ProjectView, "requested" | "supply">): string {
  const supply = Number(p.supply);
  if (!(supply > 0)) return "0";
  return ((Number(p.requested) / supply) * 100).toFixed(2);
}

/** The project a page shows: `?project=` when it is of this type, else the first open one, else the first. */
function selectedOf(projects: readonly ProjectView[], asked: string | null): ProjectView | null {
  return projects.find((p) => p.projectId === asked) ?? projects.find((p) => p.phase === "open") ?? projects[0] ?? null;
}

/** The member's funding balance of the paying coin, with its decimals. */
async function fundingOf(engine: MemberEngine, coin: string) {
  const coins = await engine.guard(() => engine.wallet.coins("funding"));
  const found = coins.find((c) => c.coin === coin);
  return { coin, available: found?.available ?? "0", scale: found?.scale ?? 8 };
}

/**
 * `/newCurrency` and `/etf` (spec §2, decision 053), anyone's: the projects of the type (open and
 * upcoming first), each with what has been asked of its supply; the one selected (`?project=`, by
 * default the first open one) in detail with the time its countdown counts from; for a member, its
 * subscribe form with the funding balance of the paying coin, what they asked so far and a fresh key.
 */
export async function loadSubscriptionProjects(engine: Engine, type: SubscriptionType) {
  const url = new URL(engine.request.url);
  const projects = await engine.guard(() => engine.subscriptionMarket.projects(type));
  const selected = selectedOf(projects, url.searchParams.get("project"));
  const member = engine.asMember();
  const [wallet, asked] =
    member && selected
      ? await Promise.all([fundingOf(member, selected.payCoin), member.attempt(() => member.subscription.asked(selected.projectId))])
      : [null, null];
  return {
    type,
    path: subscriptionPath(type),
    projects: projects.map((p) => ({ ...p, askedPercent: askedPercent(p) })),
    selected: selected ? { ...selected, askedPercent: askedPercent(selected), scale: lotScaleOf(selected.lot) } : null,
    /** The member's funding balance of the selected project's paying coin; null for a visitor. */
    wallet,
    /** What the member asked of the selected project so far, and may still ask. */
    mine: asked?.ok ? asked.value : null,
    key: newIdempotencyKey(),
    signedIn: member !== null,
    /** The server's clock, which the countdown's first text counts from (the browser's clock then ticks it). */
    now: Date.now(),
  };
}

/**
 * The subscribe form: the quantity checked at the lot's decimals, then one engine call. A
 * subscription goes to the records page with a toast; a refusal (not a whole lot, below the
 * minimum, above the member's limit, not enough to pay, the window shut) comes back on the form
 * with the engine's message, what was typed, and a new key.
 */
export async function subscribeAction(engine: MemberEngine, type: SubscriptionType) {
  const { request, lang } = engine;
  const formData = await request.formData();
  const projectId = String(formData.get("projectId") ?? "").slice(0, 40);
  const project = /^[A-Za-z0-9_-]{1,40}$/.test(projectId) ? await engine.attempt(() => engine.subscriptionMarket.project(projectId)) : null;
  const ofType = project?.ok && project.value.type === type ? project.value : null;
  const submission = parseWithZod(formData, { schema: subscribeSchema(ofType ? lotScaleOf(ofType.lot) : 8, decimalMarkOf(lang)) });
  const postedKey = String(formData.get("idempotencyKey") ?? "");
  if (submission.status !== "success") return data({ projectId, result: submission.reply(), key: postedKey || newIdempotencyKey() }, { status: 400 });
  if (!ofType) {
    const result = submission.reply({ formErrors: [project && !project.ok ? refusalError(project.message) : keyError("subscriptions.validation.project")] });
    return data({ projectId, result, key: newIdempotencyKey() }, { status: 400 });
  }
  const { quantity, idempotencyKey } = submission.value;
  const done = await engine.attempt(() => engine.subscription.subscribe(projectId, quantity!, idempotencyKey));
  if (!done.ok) return engineRefused(submission, done, { extra: { projectId, key: newIdempotencyKey() } });
  const nf = numberFormatOf(lang);
  const show = (v: string) => nf.display(v, { abbreviate: false });
  return redirectWithToast(request, `${subscriptionPath(type)}/list`, {
    type: "success",
    key: "subscriptions.subscribed",
    values: { quantity: show(done.value.quantity), coin: done.value.coin, amount: show(done.value.paid), payCoin: done.value.payCoin },
  });
}

/** Whether the site shows the return application (the deployment variant's `returnApplyEnabled`, spec §4/§6). */
async function returnApplyEnabled(): Promise<boolean> {
  return (await loadSite()).config.returnApplyEnabled;
}

/**
 * `/newCurrency/list` and `/etf/list`: the member's purchase records of the type, newest first, of
 * one status (`?status=`) or all, a page at a time; where the site offers it (`returnApplyEnabled`,
 * or `options.returnApply` given), the return application's status with what may be applied for,
 * and the application's key.
 */
export async function loadSubscriptionRecords(engine: MemberEngine, type: SubscriptionType, options: { returnApply?: boolean } = {}) {
  const url = new URL(engine.request.url);
  const asked = url.searchParams.get("status") ?? "";
  const status = STATUSES.includes(asked) ? (asked as SubscriptionStatusView) : undefined;
  const offered = options.returnApply ?? (await returnApplyEnabled());
  const [page, returns] = await Promise.all([
    engine.guard(() => engine.subscription.records(type, pageOf(url), SUBSCRIPTION_PAGE_SIZE, status ? { status } : {})),
    offered ? engine.attempt(() => engine.subscription.returnStatus()) : Promise.resolve(null),
  ]);
  return {
    type,
    path: subscriptionPath(type),
    /** The status the records are filtered by (null: all). */
    shown: status ?? null,
    page,
    /** The return application (null: not offered here). */
    returnApply: returns?.ok ? returns.value : null,
    key: newIdempotencyKey(),
  };
}

/**
 * The return application's button: one engine call with the form's key (a retry applies once),
 * then back to the records page with "Repayment done" (spec §8) and the status read again; a
 * refusal (nothing to return, already applied) comes back as a toast with the engine's message.
 */
export async function returnApplyAction(engine: MemberEngine, type: SubscriptionType, options: { returnApply?: boolean } = {}) {
  const { request } = engine;
  const offered = options.returnApply ?? (await returnApplyEnabled());
  if (!offered) throw new Response("Not found", { status: 404 });
  const formData = await request.formData();
  const back = `${subscriptionPath(type)}/list`;
  const submission = parseWithZod(formData, { schema: returnApplySchema() });
  if (submission.status !== "success") return redirectWithToast(request, back, { type: "error", key: "errors.unknown" });
  const done = await engine.attempt(() => engine.subscription.applyForReturn(submission.value.idempotencyKey));
  if (!done.ok) return redirectWithToast(request, back, { type: "error", ...(done.message ? { message: done.message } : { key: "errors.unknown" }) });
  return redirectWithToast(request, back, { type: "success", key: "subscriptions.return_done" });
}
