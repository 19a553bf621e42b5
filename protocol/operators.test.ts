import { describe, expect, it } from "vitest";
import { endpoints, type Endpoint } from "./endpoints";
import { OPERATOR_PERMISSIONS, OPERATOR_ROLES, permissionsOf, roleMay } from "./operators";

describe("the operators' role table", () => {
  it("gives admin everything and every other role the least its desk needs", () => {
    expect(permissionsOf("admin")).toEqual([...OPERATOR_PERMISSIONS]);
    // Only admins manage operators.
    for (const role of OPERATOR_ROLES) expect(roleMay(role, "operators.manage")).toBe(role === "admin");
    // Money out is finance's; identities are compliance's; markets are the markets desk's.
    expect(OPERATOR_ROLES.filter((role) => roleMay(role, "withdrawals.review"))).toEqual(["admin", "finance"]);
    expect(OPERATOR_ROLES.filter((role) => roleMay(role, "kyc.review"))).toEqual(["admin", "compliance"]);
    expect(OPERATOR_ROLES.filter((role) => roleMay(role, "markets.change"))).toEqual(["admin", "markets"]);
    expect(OPERATOR_ROLES.filter((role) => roleMay(role, "deposits.credit"))).toEqual(["admin", "finance"]);
    // Support reads and resets a lost authenticator but moves no money.
    expect(permissionsOf("support").some((p) => p.startsWith("withdrawals.review") || p === "deposits.credit" || p === "chain.send")).toBe(false);
  });

  it("lets every role see the dashboard, and every change needs a role that also reads what it changes", () => {
    for (const role of OPERATOR_ROLES) expect(roleMay(role, "dashboard.read")).toBe(true);
    const reads: Record<string, string> = {
      "kyc.review": "kyc.read",
      "withdrawals.review": "withdrawals.read",
      "markets.change": "dashboard.read",
      "members.freeze": "members.read",
    };
    for (const role of OPERATOR_ROLES)
      for (const [change, read] of Object.entries(reads))
        if (roleMay(role, change as never)) expect([role, change, roleMay(role, read as never)]).toEqual([role, change, true]);
  });

  it("names a permission for every operator call, and only known ones", () => {
    const calls = Object.values(endpoints).filter((e) => (e as Endpoint).path.startsWith("/admin/") || (e as Endpoint).path.startsWith("dev/"));
    const open = new Set(["/admin/session", "/admin/session/setup", "/admin/session/end"]);
    for (const call of calls as Endpoint[]) {
      if (open.has(call.path)) expect(call.operator).toBeUndefined();
      else expect([call.path, OPERATOR_PERMISSIONS.includes(call.operator!)]).toEqual([call.path, true]);
    }
  });
});
