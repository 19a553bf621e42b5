import { createHash } from "node:crypto";
import { mkdir, writeFile } from "node:fs/promises";
import path from "node:path";
import type { Kysely } from "kysely";
import { IMAGE_EXTENSIONS, type ImageType } from "../../protocol/image-type";
import { KYC_STATUS, type KycStatus } from "../../protocol/member";
import { ResultCode } from "../../protocol/result-codes";
import { Refusal } from "../locales/refusal";
import type { NoticeService } from "../notices/notice-service";
import type { Database } from "../store/schema";

/**
 * Identity verification (KYC): the member's uploaded images (stored by content digest), one
 * submission in review at a time, and the operator's review (approve, or reject with a reason).
 */
export class KycService {
  constructor(
    private readonly db: Kysely<Database>,
    /** Where uploaded files are stored, one folder per member. */
    private readonly uploadDir: string,
    /** The decision is told to the member (decision 031). */
    private readonly notices?: NoticeService,
  ) {}

  /** Stores an image (its type already checked by content) and answers its upload id. */
  async saveUpload(memberId: string, image: { buffer: Buffer; mime: ImageType }, now: number) {
    const { buffer, mime } = image;
    const sha256 = createHash("sha256").update(buffer).digest("hex");
    const storedName = path.join(memberId, `${sha256}.${IMAGE_EXTENSIONS[mime]}`);
    await mkdir(path.join(this.uploadDir, memberId), { recursive: true });
    await writeFile(path.join(this.uploadDir, storedName), buffer, { mode: 0o600 });
    const row = await this.db
      .insertInto("upload")
      .values({ member_id: memberId, purpose: "kyc", stored_name: storedName, mime, size: buffer.length, sha256, created_at: new Date(now) })
      .returning("id")
      .executeTakeFirstOrThrow();
    return { id: row.id, mime, size: buffer.length };
  }

  /** Submits three of the member's own uploads for review; refused while one is in review or approved. */
  async submit(memberId: string, input: { frontId: string; backId: string; handId: string; phone: string }, now: number): Promise<void> {
    const current = await this.status(memberId);
    if (current.status === KYC_STATUS.review || current.status === KYC_STATUS.approved) throw Refusal.of(ResultCode.CONFLICT, "errors.kyc_pending");
    const ids = [input.frontId, input.backId, input.handId];
    const owned = await this.db.selectFrom("upload").select("id").where("member_id", "=", memberId).where("id", "in", ids).execute();
    if (new Set(owned.map((u) => u.id)).size !== new Set(ids).size || new Set(ids).size !== 3)
      throw Refusal.of(ResultCode.BAD_REQUEST, "errors.upload_missing");
    await this.db
      .insertInto("kyc_submission")
      .values({
        member_id: memberId,
        front_upload_id: input.frontId,
        back_upload_id: input.backId,
        hand_upload_id: input.handId,
        phone: input.phone,
        status: KYC_STATUS.review,
        submitted_at: new Date(now),
      })
      .execute();
  }

  /** The member's latest submission as the status page shows it (status 0: none yet). */
  async status(memberId: string): Promise<KycStatus> {
    const row = await this.db
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

  /** The operator's decision on the member's submission in review (`uid` names the member in the refusals). */
  async review(memberId: string, uid: string, input: { decision: "approve" | "reject"; reason?: string }, now: number): Promise<KycStatus> {
    const pending = await this.db
      .selectFrom("kyc_submission")
      .select("id")
      .where("member_id", "=", memberId)
      .where("status", "=", KYC_STATUS.review)
      .orderBy("id", "desc")
      .executeTakeFirst();
    if (!pending) throw Refusal.plain(ResultCode.CONFLICT, `member ${uid} has no submission in review`);
    if (input.decision === "reject" && !input.reason) throw Refusal.plain(ResultCode.BAD_REQUEST, "reason: a rejection needs a reason");
    // The decision and the member's notification of it commit together.
    await this.db.transaction().execute(async (trx) => {
      await trx
        .updateTable("kyc_submission")
        .set({ status: input.decision === "approve" ? KYC_STATUS.approved : KYC_STATUS.rejected, reason: input.reason ?? null, reviewed_at: new Date(now) })
        .where("id", "=", pending.id)
        .execute();
      await this.notices?.record(
        trx,
        input.decision === "approve" ? { memberId, type: "kyc_approved" } : { memberId, type: "kyc_rejected", params: { reason: input.reason ?? "" } },
        now,
      );
    });
    this.notices?.told(memberId);
    return this.status(memberId);
  }
}
