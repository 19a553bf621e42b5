import { OperatorAct } from "../operators/audit";

/** An operator call as the CLI makes it, for tests that drive an operator's service method directly. */
export function testAct(action = "test"): OperatorAct {
  return new OperatorAct({ operatorId: null, name: "cli", role: "admin", via: "cli", address: "127.0.0.1" }, action);
}
