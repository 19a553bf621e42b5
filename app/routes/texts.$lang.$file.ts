import type { LoaderFunctionArgs } from "@remix-run/node";
import { isLanguageCode } from "#protocol/languages";
import { textsBody } from "~/services/platform/messages.server";

/**
 * One language's texts (decision 036): `/texts/{lang}/{version}.js` sets `window.__texts` before
 * the page's modules run; `.json` is the same for a page that changes language without a reload.
 * The current version is cached by the browser for a year (a change of texts is a new version, so
 * a new address); any other version is answered with the current texts, not to be cached.
 */
export async function loader({ params }: LoaderFunctionArgs) {
  const match = /^([A-Za-z0-9_-]{1,64})\.(js|json)$/.exec(params.file ?? "");
  const lang = params.lang ?? "";
  if (!match || !isLanguageCode(lang)) return new Response("Not found", { status: 404, headers: { "Content-Type": "text/plain; charset=utf-8" } });
  const kind = match[2] as "js" | "json";
  const { version, body } = await textsBody(lang, kind);
  return new Response(body, {
    headers: {
      "Content-Type": kind === "js" ? "text/javascript; charset=utf-8" : "application/json; charset=utf-8",
      "Cache-Control": match[1] === version ? "public, max-age=31536000, immutable" : "no-cache",
    },
  });
}
