import { createHash, timingSafeEqual } from "node:crypto";
import { mkdir, writeFile } from "node:fs/promises";
import path from "node:path";
import multipart from "@fastify/multipart";
import type { FastifyRequest } from "fastify";
import { endpoints } from "../../../protocol/endpoints";
import { KYC_STATUS, type KycStatus } from "../../../protocol/member";
import { ResultCode } from "../../../protocol/result-codes";
import { IMAGE_EXTENSIONS, MAX_ID_IMAGE_BYTES, sniffImageType } from "../../../protocol/image-type";
import { ApiError } from "../api-error";
import type { ApiContext } from "../context";
import { engineText, requestLanguage } from "../engine-texts";
import { registerEndpoint } from "../register";
import { refuseDemoMember, requireMember } from "./require-member";

/**
 * Identity verification (KYC): image uploads checked by content, a submission per member, and
 * the operator's review (approve / reject with a reason) through the admin call or `npm run admin`.
 */
export async function registerKycRoutes({ app, apiHead, db, services }: ApiContext): Promise<void> {
  await app.register(multipart, { limits: { fileSize: MAX_ID_IMAGE_BYTES, files: 1, fields: 5, fieldSize: 100 } });

  registerEndpoint(app, apiHead, endpoints.upload, async ({ request }) => {
    const lang = requestLanguage(request.headers);
    const { memberId } = await requireMember(db, request, services.now());
    if (!request.isMultipart()) throw ApiError.badRequest(engineText(lang, "errors.upload_missing"));
    // A body that cannot be read (no boundary, cut off mid-file) is the sender's fault: 400, never 500.
    const unreadable = (error: { code?: string }): never => {
      if (error instanceof ApiError) throw error;
      if (error.code === "FST_REQ_FILE_TOO_LARGE") throw new ApiError(ResultCode.PAYLOAD_TOO_LARGE, engineText(lang, "errors.upload_too_large"));
      throw ApiError.badRequest(engineText(lang, "errors.upload_unreadable"));
    };
    const file = await request.file().catch(unreadable);
    if (!file) throw ApiError.badRequest(engineText(lang, "errors.upload_missing"));
    const buffer = await file.toBuffer().catch(unreadable);
    const mime = sniffImageType(buffer.subarray(0, 32));
    if (!mime) throw ApiError.badRequest(engineText(lang, "errors.upload_type"));
    const sha256 = createHash("sha256").update(buffer).digest("hex");
    const storedName = path.join(memberId, `${sha256}.${IMAGE_EXTENSIONS[mime]}`);
    await mkdir(path.join(services.uploadDir, memberId), { recursive: true });
    await writeFile(path.join(services.uploadDir, storedName), buffer, { mode: 0o600 });
    const row = await db
      .insertInto("upload")
      .values({ member_id: memberId, purpose: "kyc", stored_name: storedName, mime, size: buffer.length, sha256, created_at: new Date(services.now()) })
      .returning("id")
      .executeTakeFirstOrThrow();
    return { id: row.id, mime, size: buffer.length };
  });

  registerEndpoint(app, apiHead, endpoints.kycSubmit, async ({ body, request }) => {
    const lang = requestLanguage(request.headers);
    const now = services.now();
    const { memberId } = await requireMember(db, request, now);
    refuseDemoMember(services, memberId, request);
    const current = await latestStatus(memberId);
    if (current.status === KYC_STATUS.review || current.status === KYC_STATUS.approved) {
      throw new ApiError(ResultCode.CONFLICT, engineText(lang, "errors.kyc_pending"));
    }
    const ids = [body.frontId, body.backId, body.handId];
    const owned = await db.selectFrom("upload").select("id").where("member_id", "=", memberId).where("id", "in", ids).execute();
    if (new Set(owned.map((u) => u.id)).size !== new Set(ids).size || new Set(ids).size !== 3) {
      throw ApiError.badRequest(engineText(lang, "errors.upload_missing"));
    }
    await db
      .insertInto("kyc_submission")
      .values({ member_id: memberId, front_upload_id: body.frontId, back_upload_id: body.backId, hand_upload_id: body.handId, phone: body.phone, status: KYC_STATUS.review, submitted_at: new Date(now) })
      .execute();
    return null;
  });

  registerEndpoint(app, apiHead, endpoints.kycStatus, async ({ request }) => {
    const { memberId } = await requireMember(db, request, services.now());
    return latestStatus(memberId);
  });

  registerEndpoint(app, apiHead, endpoints.adminKycReview, async ({ body, request }) => {
    requireAdmin(request, services.adminToken);
    const member = await db.selectFrom("member").select("id").where("uid", "=", body.uid).executeTakeFirst();
    if (!member) throw ApiError.notFound(`no member with uid ${body.uid}`);
    const pending = await db
      .selectFrom("kyc_submission")
      .select("id")
      .where("member_id", "=", member.id)
      .where("status", "=", KYC_STATUS.review)
      .orderBy("id", "desc")
      .executeTakeFirst();
    if (!pending) throw new ApiError(ResultCode.CONFLICT, `member ${body.uid} has no submission in review`);
    if (body.decision === "reject" && !body.reason) throw ApiError.badRequest("reason: a rejection needs a reason");
    await db
      .updateTable("kyc_submission")
      .set({ status: body.decision === "approve" ? KYC_STATUS.approved : KYC_STATUS.rejected, reason: body.reason ?? null, reviewed_at: new Date(services.now()) })
      .where("id", "=", pending.id)
      .execute();
    return latestStatus(member.id);
  });

  async function latestStatus(memberId: string): Promise<KycStatus> {
    const row = await db
      .selectFrom("kyc_submission")
      .select(["status", "reason", "submitted_at", "reviewed_at"])
      .where("member_id", "=", memberId)
      .orderBy("id", "desc")
      .executeTakeFirst();
    if (!row) return { status: 0, reason: null, submittedAt: null, reviewedAt: null };
    return {
      status: row.status as KycStatus["status"],
      reason: row.reason,
      submittedAt: new Date(row.submitted_at).toISOString(),
      reviewedAt: row.reviewed_at ? new Date(row.reviewed_at).toISOString() : null,
    };
  }
}

/** Operator calls carry the admin token (`x-admin-token`); compared in constant time. */
export function requireAdmin(request: FastifyRequest, adminToken: string) {
  const given = Buffer.from(String(request.headers["x-admin-token"] ?? ""));
  const expected = Buffer.from(adminToken);
  if (given.length !== expected.length || !timingSafeEqual(given, expected)) {
    throw new ApiError(ResultCode.FORBIDDEN, "admin token required");
  }
}
