import { fillPath } from "#protocol/endpoints";
import { clientOf } from "../account/auth.server";
import { webEnv } from "../platform/env.server";
import { engineHeaders, EngineRefusal, EngineUnreachable, REQUEST_TIMEOUT_MS } from "./api.server";
import { interpretResponse } from "./api-response";
import type { MemberEngine } from "./client.server";

/**
 * An engine CSV export (spot orders, bills), streamed through to the browser as a
 * download (a success is not an envelope, so these are the calls made outside the client's areas; `engine.guard` gives it the
 * client's rules). A refusal (too many rows) is thrown as `EngineRefusal`.
 */
export function downloadEngineCsv(engine: MemberEngine, endpoint: { path: string }, body: object, fallbackName: string): Promise<Response> {
  return engine.guard(async () => {
    const env = webEnv();
    const url = new URL(`/api/${env.API_HEAD}/${fillPath(endpoint.path)}`, env.ENGINE_URL);
    const headers = {
      ...engineHeaders({ lang: engine.lang, token: engine.token, client: clientOf(engine.request) }),
      accept: "text/csv, application/json",
      "content-type": "application/json",
    };
    let response: Response;
    try {
      response = await fetch(url, {
        method: "POST",
        headers,
        body: JSON.stringify(body),
        signal: AbortSignal.timeout(REQUEST_TIMEOUT_MS),
      });
    } catch (error) {
      throw new EngineUnreachable(error);
    }
    if (response.ok && response.headers.get("content-type")?.startsWith("text/csv")) {
      // Only a name of safe characters is passed on (it becomes a file name on the member's disk).
      const disposition = response.headers.get("content-disposition") ?? "";
      const name = /^attachment; filename="([A-Za-z0-9._-]{1,120}\.csv)"$/.exec(disposition)?.[1] ?? fallbackName;
      const out = new Headers({
        "content-type": "text/csv; charset=utf-8",
        "content-disposition": `attachment; filename="${name}"`,
        "cache-control": "no-store",
        "x-content-type-options": "nosniff",
      });
      return new Response(response.body, { status: 200, headers: out });
    }
    const payload = await response.json().catch(() => null);
    if (response.status > 500 && payload === null) throw new EngineUnreachable(`HTTP ${response.status}`);
    const outcome = interpretResponse(response.status, payload);
    throw new EngineRefusal(outcome.kind === "ok" ? { kind: "error", code: 502, message: null } : outcome);
  });
}
