import multipart from "@fastify/multipart";
import type { FastifyRequest } from "fastify";
import { endpoints } from "../../../protocol/endpoints";
import { MAX_ID_IMAGE_BYTES, sniffImageType } from "../../../protocol/image-type";
import { ResultCode } from "../../../protocol/result-codes";
import { Refusal } from "../../locales/refusal";
import type { KycService, UploadedImage } from "../../members/kyc-service";
import { ApiError } from "../api-error";
import type { ApiContext } from "../context";
import { memberEndpoint, type MemberCall } from "../member-endpoint";
import { operatorEndpoint } from "../operator-endpoint";

/** The images of the web form's one-request submission (`kycSubmitImages`), by their field names. */
const IMAGE_FIELDS = ["front", "back", "hand"] as const;
type ImageField = (typeof IMAGE_FIELDS)[number];

/**
 * Identity verification (KYC): image uploads checked by content, a submission per member, and
 * the operator's review (approve / reject with a reason) through the admin call or `npm run admin`.
 * Every upload is refused before its body is read when the member may not upload (the shared demo
 * member, a verification in review or approved, a full quota), and checked again before it is stored.
 */
export async function registerKycRoutes(api: ApiContext, kyc: KycService): Promise<void> {
  await api.app.register(multipart, { limits: { fileSize: MAX_ID_IMAGE_BYTES, files: 1, fields: 5, fieldSize: 100 } });

  /** Refuses an upload of `count` images before its body is read (their sizes are checked when read). */
  const refuseUpload = async ({ memberId, now, demo }: MemberCall, count: number) => {
    // The demo login is public: anything it uploaded would be every visitor's to add to.
    if (demo) throw Refusal.of(ResultCode.FORBIDDEN, "errors.demo_upload");
    await kyc.checkUploads(memberId, { count, bytes: 0 }, now);
  };

  memberEndpoint(api, endpoints.upload, async (call) => {
    await refuseUpload(call, 1);
    return kyc.saveUpload(call.memberId, await uploadedImage(call.request), call.now);
  });
  memberEndpoint(api, endpoints.kycSubmitImages, async (call) => {
    await refuseUpload(call, IMAGE_FIELDS.length);
    await kyc.submitWithImages(call.memberId, await submittedForm(call.request), call.now);
    return null;
  });
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

  operatorEndpoint(api, endpoints.adminKycReview, async ({ body, now, act }) => {
    const memberId = await api.members.idOfUid(body.uid);
    if (!memberId) throw ApiError.notFound(`no member with uid ${body.uid}`);
    return kyc.review(memberId, body.uid, body, now, act);
  });
  operatorEndpoint(api, endpoints.opsKycQueue, () => kyc.queue());
  operatorEndpoint(api, endpoints.opsKycImage, async ({ params }) => {
    const image = await kyc.image(params.id);
    if (!image) throw ApiError.notFound(`no image ${params.id}`);
    return image;
  });
}

/** A body that cannot be read (no boundary, cut off mid-file, too many parts) is the sender's fault: 400, never 500. */
function unreadable(error: { code?: string }): never {
  if (error instanceof Refusal) throw error;
  if (error.code === "FST_REQ_FILE_TOO_LARGE") throw Refusal.of(ResultCode.PAYLOAD_TOO_LARGE, "errors.upload_too_large");
  throw Refusal.of(ResultCode.BAD_REQUEST, "errors.upload_unreadable");
}

/** An image's content, its type taken from its first bytes (a renamed text file is refused). */
function checkedImage(buffer: Buffer): UploadedImage {
  const mime = sniffImageType(buffer.subarray(0, 32));
  if (!mime) throw Refusal.of(ResultCode.BAD_REQUEST, "errors.upload_type");
  return { buffer, mime };
}

/** The one image of a multipart upload, its type taken from its content. */
async function uploadedImage(request: FastifyRequest): Promise<UploadedImage> {
  if (!request.isMultipart()) throw Refusal.of(ResultCode.BAD_REQUEST, "errors.upload_missing");
  const file = await request.file().catch(unreadable);
  if (!file) throw Refusal.of(ResultCode.BAD_REQUEST, "errors.upload_missing");
  return checkedImage(await file.toBuffer().catch(unreadable));
}

/**
 * The web form's three images and phone, read whole (each image within the size limit) and
 * checked, the phone by `kycSubmit`'s rule, before the service stores any of it.
 */
async function submittedForm(request: FastifyRequest): Promise<Record<ImageField, UploadedImage> & { phone: string }> {
  if (!request.isMultipart()) throw Refusal.of(ResultCode.BAD_REQUEST, "errors.upload_missing");
  const buffers: Partial<Record<ImageField, Buffer>> = {};
  let phone = "";
  try {
    for await (const part of request.parts({ limits: { files: IMAGE_FIELDS.length } })) {
      if (part.type === "file") {
        const buffer = await part.toBuffer();
        if ((IMAGE_FIELDS as readonly string[]).includes(part.fieldname)) buffers[part.fieldname as ImageField] = buffer;
      } else if (part.fieldname === "phone") {
        phone = String(part.value);
      }
    }
  } catch (error) {
    unreadable(error as { code?: string });
  }
  const [front, back, hand] = IMAGE_FIELDS.map((field) => {
    const buffer = buffers[field];
    if (!buffer?.length) throw Refusal.of(ResultCode.BAD_REQUEST, "errors.upload_missing");
    return checkedImage(buffer);
  }) as [UploadedImage, UploadedImage, UploadedImage];
  const checkedPhone = endpoints.kycSubmit.body.shape.phone.safeParse(phone);
  if (!checkedPhone.success) throw Refusal.of(ResultCode.BAD_REQUEST, "errors.phone_invalid");
  return { front, back, hand, phone: checkedPhone.data };
}
