import { endpoints } from "#protocol/endpoints";
import type { EngineCall } from "../call.server";
import type { EndpointInput } from "../endpoint-input";
import { sendCode, type CodeTarget } from "./codes.server";

/** A visitor's calls: codes, registration, a forgotten password, the login itself. */
export function authArea(call: EngineCall) {
  return {
    sendCode: (target: CodeTarget, purpose: "register" | "reset") => sendCode(call, target, purpose),
    register: (body: EndpointInput<typeof endpoints.register>["body"]) => call(endpoints.register, { body }),
    /** Sets a new password with a `reset` code (the forgotten-password page); every session ends. */
    resetPassword: (body: EndpointInput<typeof endpoints.resetPassword>["body"]) => call(endpoints.resetPassword, { body }),
    /** The demo login of a demo install, or null when it has none. */
    demoAccount: () => call(endpoints.demoAccount),
    /** The engine's token call (a password grant): the login. */
    token: (input: EndpointInput<typeof endpoints.token>) => call(endpoints.token, input),
  };
}
