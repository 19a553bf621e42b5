import { describe, expect, it } from "vitest";
import { interpretResponse } from "./api-response";

describe("interpretResponse (spec §8 response handling)", () => {
  it("takes the code from the body", () => {
    expect(interpretResponse(200, { code: 200, success: true, msg: "success", data: [1] })).toEqual({ kind: "ok", data: [1] });
    expect(interpretResponse(200, { code: 400, msg: "pageSize: must be an integer" })).toEqual({
      kind: "error",
      code: 400,
      message: "pageSize: must be an integer",
    });
  });
  it("falls back to the HTTP status when the body has no code", () => {
    expect(interpretResponse(404, null)).toEqual({ kind: "error", code: 404, message: null });
    expect(interpretResponse(200, "not json")).toEqual({ kind: "ok", data: null });
  });
  it("passes 405 and 'step 1 login successful' through", () => {
    expect(interpretResponse(200, { code: 405, msg: "need google code" }).kind).toBe("pass-through");
    expect(interpretResponse(200, { code: 400, msg: "step 1 login successful" }).kind).toBe("pass-through");
  });
  it("turns 401 into a logout", () => {
    expect(interpretResponse(401, { code: 401, msg: "token expired" })).toEqual({ kind: "logout", code: 401 });
  });
  it("strips HTML from server messages", () => {
    expect(interpretResponse(500, { code: 500, msg: "<b>Insufficient</b> available&nbsp;balance<script>x()</script>" })).toEqual({
      kind: "error",
      code: 500,
      message: "Insufficient available balance",
    });
    expect(interpretResponse(500, { code: 500, msg: "<p></p>" })).toEqual({ kind: "error", code: 500, message: null });
  });
});
