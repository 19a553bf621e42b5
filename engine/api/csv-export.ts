import { Readable } from "node:stream";
import type * as z from "zod";
import type { Endpoint } from "../../protocol/endpoint";
import type { LanguageCode } from "../../protocol/languages";
import { requestLanguage } from "../locales/engine-texts";
import type { CsvExport } from "../spot/order-history-service";
import type { ApiContext } from "./context";
import { resolveMember } from "./member-endpoint";
import { parse } from "./register";

/**
 * A member's CSV download: the body checked by its schema, the member resolved, and the file
 * streamed with download headers. It answers a file, not an envelope, so it is registered by
 * hand; a refusal (a bad filter, too many rows, no login) is still an envelope.
 */
export function memberCsvExport<S extends z.ZodType>(
  api: ApiContext,
  endpoint: Endpoint,
  body: S,
  run: (input: { body: z.output<S>; memberId: string; lang: LanguageCode; now: number }) => Promise<CsvExport>,
): void {
  api.app.post(`/api/${api.apiHead}/${endpoint.path}`, async (request, reply) => {
    const lang = requestLanguage(request.headers);
    const parsed = parse(body, request.body ?? {}, "body", lang);
    const { memberId, now } = await resolveMember(api, request);
    const file = await run({ body: parsed, memberId, lang, now });
    return reply
      .header("content-type", "text/csv; charset=utf-8")
      .header("content-disposition", `attachment; filename="${file.filename}"`)
      .header("cache-control", "no-store")
      .header("x-content-type-options", "nosniff")
      .send(Readable.from(file.lines));
  });
}
