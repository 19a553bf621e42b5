import { PassThrough } from "node:stream";
import { createReadableStreamFromReadable, type AppLoadContext, type EntryContext, type HandleErrorFunction } from "@remix-run/node";
import { isRouteErrorResponse, RemixServer } from "@remix-run/react";
import { isbot } from "isbot";
import { renderToPipeableStream } from "react-dom/server";
import { NonceProvider } from "~/lib/nonce";
import { requestErrorLog } from "../server/request-log.mjs";

/** Spec §9: a page that has not finished streaming after this long is cut off. */
export const streamTimeout = 10_000;

/**
 * Remix's error log: a client's malformed request (no such route or action, a bad `?_data=`) is one
 * line, a server fault keeps its stack (server/request-log.mjs). A request its client gave up on
 * is not logged, as in Remix's own handler.
 */
export const handleError: HandleErrorFunction = (error, { request }) => {
  if (request.signal.aborted) return;
  // Remix warns of every `?_data=` request: single fetch never sends one, so only a foreign client
  // does, and what its request led to is logged on its own.
  if (error instanceof Error && error.message.startsWith("Warning: Single fetch-enabled apps should not be making ?_data requests")) return;
  const status = isRouteErrorResponse(error) ? error.status : 500;
  // An error answer of Remix's own (404, 405, a bad `?_data=`) carries the error it stands for.
  const cause = isRouteErrorResponse(error) ? ((error as { error?: unknown }).error ?? error) : error;
  console.error(requestErrorLog({ method: request.method, url: request.url }, status, cause));
};

export default function handleRequest(
  request: Request,
  responseStatusCode: number,
  responseHeaders: Headers,
  remixContext: EntryContext,
  loadContext: AppLoadContext,
) {
  // server.mjs sets the Content-Security-Policy with this nonce and the security headers.
  const nonce = loadContext.cspNonce ?? "";
  // Bots and no-JS clients get the whole document at once; browsers get it streamed.
  const waitForAll = isbot(request.headers.get("user-agent") ?? "");
  return new Promise<Response>((resolve, reject) => {
    let shellRendered = false;
    const { pipe, abort } = renderToPipeableStream(
      <NonceProvider value={nonce}>
        <RemixServer context={remixContext} url={request.url} abortDelay={streamTimeout} nonce={nonce} />
      </NonceProvider>,
      {
        nonce,
        [waitForAll ? "onAllReady" : "onShellReady"]() {
          shellRendered = true;
          const body = new PassThrough();
          responseHeaders.set("Content-Type", "text/html; charset=utf-8");
          resolve(new Response(createReadableStreamFromReadable(body), { headers: responseHeaders, status: responseStatusCode }));
          pipe(body);
        },
        onShellError(error: unknown) {
          reject(error);
        },
        onError(error: unknown) {
          responseStatusCode = 500;
          // Errors after the shell are logged; the error boundary renders for the member.
          if (shellRendered) console.error(error);
        },
      },
    );
    setTimeout(abort, streamTimeout + 1000);
  });
}
