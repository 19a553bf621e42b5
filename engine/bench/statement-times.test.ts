import { describe, expect, it } from "vitest";
import { statementKind } from "./statement-times";

describe("statementKind", () => {
  it("names what a statement does and to which table, not the function its rows come from", () => {
    expect(statementKind(`insert into "spot_order" ("order_id") select "order_id" from json_populate_recordset(null::spot_order, $v$[]$v$::json)`)).toBe(
      "insert into spot_order",
    );
    expect(statementKind("update spot_order o\n  set filled = o.filled + v.filled from (select 1) v")).toBe("update spot_order");
    expect(statementKind("delete from idempotency_key where created_at < $1")).toBe("delete from idempotency_key");
    expect(statementKind("select s.id from json_array_elements_text($1) as t(token) join device_session s on s.token = t.token")).toBe("select device_session");
    expect(statementKind('select count(*) from "member"')).toBe("select member");
  });
});
