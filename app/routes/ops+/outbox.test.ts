import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { OutboxRow } from "#protocol/endpoints/operators";
import { signInOperator, type SignedInOperator } from "~/testing/ops";
import { startTestExchange, type TestExchange } from "~/testing/test-exchange";
import * as outboxRoute from "./outbox";

/** The console's outbox (issue 29) against a real engine: admins only, filtered, a bad filter said so. */
let exchange: TestExchange;
let admin: SignedInOperator;
let support: SignedInOperator;
beforeAll(async () => {
  exchange = await startTestExchange();
  admin = await signInOperator(exchange, { email: "admin-o@ops.example", role: "admin" });
  support = await signInOperator(exchange, { email: "support-o@ops.example", role: "support" });
});
afterAll(() => exchange?.close());

describe("the outbox page", () => {
  it("lists a member's mails to an admin, and refuses other roles", async () => {
    const email = "outbox-page@example.com";
    await exchange.register(email);
    const page = await admin.browser.get(outboxRoute.loader, `/ops/outbox?destination=${encodeURIComponent(email)}`);
    expect(page.status).toBe(200);
    const rows = (page.data as { page: { rows: OutboxRow[] } }).page.rows;
    expect(rows.length).toBeGreaterThan(0);
    expect(rows.every((row) => row.destination === email)).toBe(true);
    expect((await support.browser.get(outboxRoute.loader, "/ops/outbox")).status).toBe(403);
  });

  it("says which filter cannot be one, and asks the engine for nothing", async () => {
    for (const [query, errors] of [
      ["state=lost", { state: "ops.errors.invalid" }],
      ["destination=ab", { destination: "ops.outbox.destination" }],
      ["destination=%20%20ab%20&state=failed", { destination: "ops.outbox.destination" }],
      ["before=x", { before: "ops.errors.page" }],
    ] as const) {
      const page = await admin.browser.get(outboxRoute.loader, `/ops/outbox?${query}`);
      expect([query, page.status]).toEqual([query, 200]);
      expect(page.data).toMatchObject({ errors, page: { rows: [] }, older: null });
    }
  });
});
