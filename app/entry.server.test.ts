import { afterEach, describe, expect, it, vi } from "vitest";
import { handleError } from "./entry.server";

// An error answer of Remix's own, as its router makes it (isRouteErrorResponse's shape).
const errorAnswer = (status: number, error: Error) => ({ status, statusText: "", internal: true, data: error.toString(), error });
const args = (url: string, method = "GET", signal?: AbortSignal) =>
  ({ request: new Request(url, { method, signal }), params: {}, context: {} }) as Parameters<typeof handleError>[1];

describe("the web tier's Remix error log", () => {
  afterEach(() => vi.restoreAllMocks());

  it("logs a client's malformed request in one line, a server fault with its stack", () => {
    const log = vi.spyOn(console, "error").mockImplementation(() => {});
    handleError(
      errorAnswer(405, new Error('You made a POST request to "/home/index" but did not provide an `action`')),
      args("http://x/home/index?a=1", "POST"),
    );
    handleError(errorAnswer(403, new Error('Route "routes/nope" does not match URL "/user/login"')), args("http://x/user/login?_data=routes/nope"));
    const bug = new Error("a bug");
    handleError(bug, args("http://x/account/center"));
    expect(log.mock.calls.map(([text]) => text)).toEqual([
      'POST /home/index 405 You made a POST request to "/home/index" but did not provide an `action`',
      'GET /user/login 403 Route "routes/nope" does not match URL "/user/login"',
      `GET /account/center 500 a bug\n${bug.stack}`,
    ]);
  });

  it("logs nothing for Remix's warning of a `?_data=` request, nor for a request its client gave up on", () => {
    const log = vi.spyOn(console, "error").mockImplementation(() => {});
    handleError(
      new Error("Warning: Single fetch-enabled apps should not be making ?_data requests, this is likely to break in the future"),
      args("http://x/?_data=root"),
    );
    handleError(new Error("a bug"), args("http://x/", "GET", AbortSignal.abort()));
    expect(log).not.toHaveBeenCalled();
  });
});
