import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { endpoints } from "#protocol/endpoints";
import { signInOperator, type SignedInOperator } from "~/testing/ops";
import { sourceRequestHandler } from "~/testing/request-handler";
import { Browser } from "~/testing/route-call";
import { routeFiles } from "~/testing/route-manifest";
import { startTestExchange, type TestExchange } from "~/testing/test-exchange";
import { utcMillisOf } from "./__audit.server";
import * as csvRoute from "./audit[.csv]";
import * as auditRoute from "./audit";
import * as operatorsRoute from "./operators";

/** The operator console's operators and audit pages (issue 29, decision 043) against a real engine. */
let exchange: TestExchange;
let admin: SignedInOperator;
let support: SignedInOperator;
beforeAll(async () => {
  exchange = await startTestExchange();
  admin = await signInOperator(exchange, { email: "admin@ops.example", role: "admin", name: "Ada Admin" });
  support = await signInOperator(exchange, { email: "support@ops.example", role: "support", name: "Sam Support" });
});
afterAll(() => exchange?.close());

const OPERATORS = "/ops/operators";
const AUDIT = "/ops/audit";
const PASSWORD = "a long initial password";
const listed = () => exchange.api.data(endpoints.opsOperators, {}, exchange.operator);
type OperatorsPage = {
  operators: Array<{ id: string; email: string; name: string; role: string; changeable: boolean; totpReady: boolean; disabled: boolean }>;
};
type AuditPage = {
  errors: Record<string, string> | null;
  page: {
    rows: Array<{ id: string; operator: string; role: string; via: string; action: string; target: string; after: unknown }>;
    next: string | null;
  } | null;
};

describe("the operators page", () => {
  it("lets an admin add a support operator, who is listed to be set up at the first login", async () => {
    const answer = await admin.browser.post(operatorsRoute.action, OPERATORS, {
      intent: "add",
      email: " Nora@Ops.Example ",
      name: "Nora Newcomer",
      role: "support",
      password: PASSWORD,
    });
    expect(answer.status).toBe(302);
    expect(answer.location).toBe(OPERATORS);
    expect(answer.headers.get("cache-control")).toBe("no-store");
    expect(await admin.browser.toast()).toMatchObject({ type: "success", key: "ops.operators.added", values: { name: "Nora Newcomer" } });
    const page = await admin.browser.get(operatorsRoute.loader, OPERATORS);
    expect(page.status).toBe(200);
    expect((page.data as OperatorsPage).operators).toContainEqual(
      expect.objectContaining({ email: "nora@ops.example", name: "Nora Newcomer", role: "support", totpReady: false, disabled: false, changeable: true }),
    );
  });

  it("refuses an e-mail that has an operator with the 'exists' error, and adds nobody", async () => {
    const before = (await listed()).length;
    const answer = await admin.browser.post(operatorsRoute.action, OPERATORS, {
      intent: "add",
      email: "support@ops.example",
      name: "Twin",
      role: "finance",
      password: PASSWORD,
    });
    expect(answer.status).toBe(400);
    const { result } = answer.data as { result: { error: Record<string, string[]>; initialValue: Record<string, string> } };
    expect(result.error[""]).toEqual(["ops.errors.exists"]);
    // The form comes back as typed, without the password.
    expect(result.initialValue).toMatchObject({ email: "support@ops.example", name: "Twin", role: "finance" });
    expect(result.initialValue.password).toBeUndefined();
    expect(await listed()).toHaveLength(before);
  });

  it("refuses a form the schema refuses beside its fields, before the engine", async () => {
    const before = (await listed()).length;
    const answer = await admin.browser.post(operatorsRoute.action, OPERATORS, {
      intent: "add",
      email: "not-an-address",
      name: "",
      role: "boss",
      password: "short",
    });
    expect(answer.status).toBe(400);
    const { result } = answer.data as { result: { error: Record<string, string[]> } };
    expect(result.error).toMatchObject({
      email: ["ops.errors.email"],
      name: ["ops.errors.name"],
      role: ["ops.errors.role"],
      password: ["ops.errors.password_short"],
    });
    expect(await listed()).toHaveLength(before);
  });

  it("gives an admin no controls over themself, and refuses a forged change with the 'self' error", async () => {
    const page = await admin.browser.get(operatorsRoute.loader, OPERATORS);
    const rows = (page.data as OperatorsPage).operators;
    expect(rows.find((row) => row.id === admin.operator.id)).toMatchObject({ changeable: false, role: "admin" });
    expect(rows.filter((row) => row.id !== admin.operator.id).every((row) => row.changeable)).toBe(true);
    const forgeries: Array<Record<string, string>> = [{ intent: "role", role: "support" }, { intent: "disable" }, { intent: "reset" }];
    for (const forged of forgeries) {
      const answer = await admin.browser.post(operatorsRoute.action, OPERATORS, { ...forged, id: admin.operator.id });
      expect(answer.status).toBe(400);
      expect(answer.data).toEqual({ row: { id: admin.operator.id, error: "ops.errors.self" } });
    }
    expect((await listed()).find((o) => o.id === admin.operator.id)).toMatchObject({ role: "admin", disabled: false, totpReady: true });
  });

  it("changes another operator's role, access and authenticator, each with a toast", async () => {
    const made = await exchange.api.data(
      endpoints.opsOperatorAdd,
      { body: { email: "mover@ops.example", name: "Mo Mover", role: "support", password: PASSWORD } },
      exchange.operator,
    );
    const change = async (form: Record<string, string>, key: string) => {
      const answer = await admin.browser.post(operatorsRoute.action, OPERATORS, { id: made.id, ...form });
      expect(answer.location).toBe(OPERATORS);
      expect(await admin.browser.toast()).toMatchObject({ type: "success", key, values: { name: "Mo Mover" } });
      return (await listed()).find((o) => o.id === made.id);
    };
    expect(await change({ intent: "role", role: "compliance" }, "ops.operators.role_changed")).toMatchObject({ role: "compliance" });
    expect(await change({ intent: "disable" }, "ops.operators.disabled_done")).toMatchObject({ disabled: true });
    expect(await change({ intent: "enable" }, "ops.operators.enabled_done")).toMatchObject({ disabled: false });
    expect(await change({ intent: "reset" }, "ops.operators.reset_done")).toMatchObject({ totpReady: false, role: "compliance" });
  });

  it("answers a bad row form with its message and changes nothing", async () => {
    const before = await listed();
    const cases: Array<[Record<string, string>, string]> = [
      [{ intent: "role", id: support.operator.id, role: "boss" }, "ops.errors.role"],
      [{ intent: "role", id: support.operator.id, role: "support", current: "support" }, "ops.errors.no_change"],
      [{ intent: "role", id: "../1", role: "admin" }, "ops.errors.operator"],
      [{ intent: "disable", id: "999999" }, "ops.errors.unknown_operator"],
      [{ intent: "delete", id: support.operator.id }, "ops.errors.invalid"],
      [{}, "ops.errors.invalid"],
    ];
    for (const [form, error] of cases) {
      const answer = await admin.browser.post(operatorsRoute.action, OPERATORS, form);
      expect([form, answer.status]).toEqual([form, 400]);
      expect([form, (answer.data as { row: { error: string } }).row.error]).toEqual([form, error]);
    }
    expect(await listed()).toEqual(before);
  });

  it("is a 403 for a support operator, the page and its action alike", async () => {
    expect(await support.browser.get(operatorsRoute.loader, OPERATORS)).toMatchObject({ status: 403, thrown: true });
    const forged = await support.browser.post(operatorsRoute.action, OPERATORS, {
      intent: "add",
      email: "x@ops.example",
      name: "X",
      role: "admin",
      password: PASSWORD,
    });
    expect(forged).toMatchObject({ status: 403, thrown: true });
    expect((await listed()).map((o) => o.email)).not.toContain("x@ops.example");
  });

  it("sends a browser without the console's session to the login", async () => {
    const answer = await new Browser().get(operatorsRoute.loader, OPERATORS);
    expect(answer.location).toBe(`/ops/login?redirectTo=${encodeURIComponent(OPERATORS)}`);
  });
});

describe("the audit log page", () => {
  it("lists the add with its operator, newest first, and filters by action", async () => {
    const all = await admin.browser.get(auditRoute.loader, AUDIT);
    expect(all.status).toBe(200);
    const rows = (all.data as AuditPage).page!.rows;
    expect(rows.map((row) => Number(row.id))).toEqual([...rows.map((row) => Number(row.id))].sort((a, b) => b - a));
    // Nora was added by the admin in the console; the operators of this suite by the CLI.
    expect(rows).toContainEqual(
      expect.objectContaining({
        operator: "Ada Admin",
        role: "admin",
        via: "console",
        action: "operators.add",
        after: { email: "nora@ops.example", name: "Nora Newcomer", role: "support" },
      }),
    );
    expect(rows).toContainEqual(expect.objectContaining({ operator: "cli", via: "cli", action: "operators.add" }));

    const adds = (await admin.browser.get(auditRoute.loader, `${AUDIT}?action=operators.add&operator=Ada+Admin`)).data as AuditPage;
    expect(adds.page!.rows.length).toBeGreaterThan(0);
    expect(adds.page!.rows.every((row) => row.action === "operators.add" && row.operator === "Ada Admin")).toBe(true);
    const updates = (await admin.browser.get(auditRoute.loader, `${AUDIT}?action=operators.update`)).data as AuditPage;
    expect(updates.page!.rows.length).toBe(4);
    expect(updates.page!.rows.every((row) => row.action === "operators.update")).toBe(true);
    // Nothing was recorded for the refused changes (the admin's own row, the bad forms).
    expect(updates.page!.rows.some((row) => row.target === `operator:${admin.operator.id}`)).toBe(false);
  });

  it("filters by time (datetime-local, read as UTC) and pages by the last id", async () => {
    const future = (await admin.browser.get(auditRoute.loader, `${AUDIT}?from=2999-01-01T00:00`)).data as AuditPage;
    expect(future).toMatchObject({ errors: null, page: { rows: [], next: null } });
    const past = (await admin.browser.get(auditRoute.loader, `${AUDIT}?to=2000-01-01T00:00`)).data as AuditPage;
    expect(past.page!.rows).toEqual([]);
    const all = ((await admin.browser.get(auditRoute.loader, AUDIT)).data as AuditPage).page!.rows;
    const second = all[1]!;
    const older = (await admin.browser.get(auditRoute.loader, `${AUDIT}?before=${all[0]!.id}`)).data as AuditPage;
    expect(older.page!.rows[0]!.id).toBe(second.id);
    expect(utcMillisOf("2026-11-28T10:00")).toBe(Date.parse("2026-11-28T10:00:00Z"));
    expect(utcMillisOf("2026-11-28T10:00:30.5")).toBe(Date.parse("2026-11-28T10:00:30.500Z"));
  });

  it("answers a bad filter with its messages, asking the engine for nothing, never a 5xx", async () => {
    const cases: Array<[string, Record<string, string>]> = [
      ["from=yesterday", { from: "ops.errors.time" }],
      ["to=2026-02-31T10:00", { to: "ops.errors.time" }],
      ["from=1969-12-31T23:59", { from: "ops.errors.time" }],
      ["from=2026-11-28T10:00&to=2026-11-28T09:00", { to: "ops.audit.bad_range" }],
      [`operator=${"x".repeat(61)}`, { operator: "ops.audit.too_long" }],
      [`target=${"x".repeat(81)}`, { target: "ops.audit.too_long" }],
      ["operator=a%00b&action=x%0Ay", { operator: "ops.audit.bad_text", action: "ops.audit.bad_text" }],
      ["before=-1", { before: "ops.errors.page" }],
      ["before=99999999999999999999", { before: "ops.errors.page" }],
    ];
    for (const [query, errors] of cases) {
      const answer = await admin.browser.get(auditRoute.loader, `${AUDIT}?${query}`);
      expect([query, answer.status]).toEqual([query, 400]);
      expect([query, (answer.data as AuditPage).errors]).toEqual([query, errors]);
      expect((answer.data as AuditPage).page).toBeNull();
    }
  });

  it("exports the filter's rows as a CSV with its header line", async () => {
    const answer = await admin.browser.get(csvRoute.loader, `${AUDIT}.csv?action=operators.add`);
    expect(answer.status).toBe(200);
    expect(answer.headers.get("content-type")).toBe("text/csv; charset=utf-8");
    expect(answer.headers.get("content-disposition")).toMatch(/^attachment; filename="audit-\d{8}\.csv"$/);
    expect(answer.headers.get("cache-control")).toBe("no-store");
    expect(answer.headers.get("x-robots-tag")).toBe("noindex, nofollow");
    expect(answer.headers.get("x-truncated")).toBeNull();
    const lines = String(answer.data).trimEnd().split("\r\n");
    expect(lines[0]).toBe("id,at,operator_id,operator,role,via,action,target,before,after,address");
    expect(lines.length).toBeGreaterThanOrEqual(4);
    expect(lines.slice(1).every((line) => line.includes(",operators.add,"))).toBe(true);
    expect(lines.some((line) => line.includes("Ada Admin") && line.includes("nora@ops.example"))).toBe(true);
  });

  it("sends a CSV of a bad filter back to the page, which names it", async () => {
    const answer = await admin.browser.get(csvRoute.loader, `${AUDIT}.csv?from=nope&action=operators.add`);
    expect(answer.status).toBe(302);
    expect(answer.location).toBe(`${AUDIT}?action=operators.add&from=nope`);
  });

  it("is a 403 for a support operator, the CSV too", async () => {
    expect(await support.browser.get(auditRoute.loader, AUDIT)).toMatchObject({ status: 403, thrown: true });
    expect(await support.browser.get(csvRoute.loader, `${AUDIT}.csv`)).toMatchObject({ status: 403, thrown: true });
  });
});

describe("the console's data requests", () => {
  it("answers every console route's data by id, for an admin and a support operator, bad filters too, never with a 5xx", async () => {
    const handle = await sourceRequestHandler();
    const routes = (await routeFiles()).filter(({ url }) => url.startsWith("/ops"));
    expect(routes.map((r) => r.id)).toEqual(expect.arrayContaining(["routes/ops+/operators", "routes/ops+/audit", "routes/ops+/audit[.csv]"]));
    const failures: string[] = [];
    for (const who of [admin, support]) {
      const cookie = who.browser.cookieHeader();
      for (const { id, url } of routes) {
        for (const query of ["", "from=garbage&before=x&", "to=2026-13-01T00:00&", "operator=%00&action=%E2%80%AE&target=%F0%9F%98%80&"]) {
          const target = `${url}?${query}_data=${encodeURIComponent(id)}`;
          const answer = await handle(new Request(`http://localhost${target}`, { headers: { "accept-language": "en", cookie } }));
          if (answer.status >= 500) failures.push(`${who.operator.role} ${target}: ${answer.status} ${(await answer.text()).slice(0, 200)}`);
        }
      }
    }
    expect(failures).toEqual([]);
  });

  it("serves the CSV through Remix's own handling of a resource route: the file to an admin, a 403 to support", async () => {
    const handle = await sourceRequestHandler();
    const get = (who: SignedInOperator) =>
      handle(new Request("http://localhost/ops/audit.csv?action=operators.add", { headers: { "accept-language": "en", cookie: who.browser.cookieHeader() } }));
    const file = await get(admin);
    expect(file.status).toBe(200);
    expect(file.headers.get("content-type")).toBe("text/csv; charset=utf-8");
    expect(file.headers.get("cache-control")).toBe("no-store");
    expect((await file.text()).startsWith("id,at,operator_id,")).toBe(true);
    expect((await get(support)).status).toBe(403);
  });
});
