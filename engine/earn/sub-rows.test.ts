import { describe, expect, it } from "vitest";
import { SubRows } from "./sub-rows";

/** Batches merged by the projector (or a replay) keep every change of a subscription: a settlement's amounts stay when its application follows. */
describe("subscription rows of merged batches", () => {
  it("merges a later change into an earlier one", () => {
    const first = new SubRows();
    first.change({ id: "U1", status: "allotted", won_quantity: "8", won_amount: "80", refund: "110", updated_at: "2026-12-01T00:00:00Z" });
    const second = new SubRows();
    second.change({ id: "U1", status: "returning", application_id: "R1", updated_at: "2026-12-01T00:01:00Z" });
    const third = new SubRows();
    third.change({ id: "U1", status: "returned", updated_at: "2026-12-01T00:02:00Z" });
    first.absorb(second);
    first.absorb(third);
    const [update] = first.statements();
    expect(update).toContain('"refund":"110"');
    expect(update).toContain('"application_id":"R1"');
    expect(update).toContain('"status":"returned"');
    expect(update).toContain('"won_quantity":"8"');
  });
});
