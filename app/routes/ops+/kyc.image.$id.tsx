import type { LoaderFunctionArgs } from "@remix-run/node";
import { endpoints } from "#protocol/endpoints";
import { EngineRefusal } from "~/services/engine/api.server";
import { OPS_HEADERS, withOperator } from "~/services/ops/ops-engine.server";

/**
 * The image types a reviewer's browser is given: raster images only (what the upload accepts by
 * content, spec §5: JPEG, PNG, GIF, BMP; and WebP). Anything else (an SVG could carry a script)
 * is not served.
 */
const SERVED_TYPES = new Set(["image/jpeg", "image/png", "image/webp", "image/gif", "image/bmp"]);
const UPLOAD_ID = /^\d{1,18}$/;

const notFound = () => new Response("Not found", { status: 404, headers: { "content-type": "text/plain; charset=utf-8", ...OPS_HEADERS } });

/**
 * One uploaded ID image for a reviewer (`kyc.read`): its bytes, never cached, never sniffed as
 * another type, with a policy that runs nothing. An id the engine does not know is a 404.
 */
export function loader(args: LoaderFunctionArgs) {
  return withOperator(args, "kyc.read", async ({ ops, params }) => {
    const id = params.id ?? "";
    if (!UPLOAD_ID.test(id)) return notFound();
    let image: { mime: string; base64: string };
    try {
      image = await ops.call(endpoints.opsKycImage, { params: { id } });
    } catch (error) {
      if (error instanceof EngineRefusal) return notFound();
      throw error;
    }
    if (!SERVED_TYPES.has(image.mime)) return notFound();
    const bytes = Buffer.from(image.base64, "base64");
    return new Response(bytes, {
      headers: {
        ...OPS_HEADERS,
        "content-type": image.mime,
        "content-length": String(bytes.length),
        "cache-control": "private, no-store",
        "x-content-type-options": "nosniff",
        "content-security-policy": "default-src 'none'",
      },
    });
  });
}
