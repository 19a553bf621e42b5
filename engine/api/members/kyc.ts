import multipart from "@fastify/multipart";
import type { FastifyRequest } from "fastify";
import { endpoints } from "../../../protocol/endpoints";
import { MAX_ID_IMAGE_BYTES, sniffImageType } from "../../../protocol/image-type";
import { ResultCode } from "../../../protocol/result-codes";
import { Refusal } from "../../locales/refusal";
import type { KycService } from "../../members/kyc-service";
import { ApiError } from "../api-error";
import type { ApiContext } from "../context";
import { memberEndpoint } from "../member-endpoint";
import { operatorEndpoint } from "../operator-endpoint";

/**
 * Identity verification (KYC): image uploads checked by content, a submission per member, and
 * the operator's review (approve / reject with a reason) through the admin call or `npm run admin`.
 */
export async function registerKycRoutes(api: ApiContext, kyc: KycService): Promise<void> {
  await api.app.register(multipart, { limits: { fileSize: MAX_ID_IMAGE_BYTES, files: 1, fields: 5, fieldSize: 100 } });

  memberEndpoint(api, endpoints.upload, async ({ request, memberId, now }) => kyc.saveUpload(memberId, await uploadedImage(request), now));
  memberEndpoint(
    api,
    endpoints.kycSubmit,
    async ({ body, memberId, now }) => {
      await kyc.submit(memberId, body, now);
      return null;
    },
    { securityChange: true },
  );
  memberEndpoint(api, endpoints.kycStatus, ({ memberId }) => kyc.status(memberId));

  operatorEndpoint(api, endpoints.adminKycReview, async ({ body, now }) => {
    const memberId = await api.members.idOfUid(body.uid);
    if (!memberId) throw ApiError.notFound(`no member with uid ${body.uid}`);
    return kyc.review(memberId, body.uid, body, now);
  });
}

/** The one image of a multipart upload, its type taken from its content. */
async function uploadedImage(request: FastifyRequest) {
  if (!request.isMultipart()) throw Refusal.of(ResultCode.BAD_REQUEST, "errors.upload_missing");
  // A body that cannot be read (no boundary, cut off mid-file) is the sender's fault: 400, never 500.
  const unreadable = (error: { code?: string }): never => {
    if (error instanceof Refusal) throw error;
    if (error.code === "FST_REQ_FILE_TOO_LARGE") throw Refusal.of(ResultCode.PAYLOAD_TOO_LARGE, "errors.upload_too_large");
    throw Refusal.of(ResultCode.BAD_REQUEST, "errors.upload_unreadable");
  };
  const file = await request.file().catch(unreadable);
  if (!file) throw Refusal.of(ResultCode.BAD_REQUEST, "errors.upload_missing");
  const buffer = await file.toBuffer().catch(unreadable);
  const mime = sniffImageType(buffer.subarray(0, 32));
  if (!mime) throw Refusal.of(ResultCode.BAD_REQUEST, "errors.upload_type");
  return { buffer, mime };
}
