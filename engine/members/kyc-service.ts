import type { OperatorAct } from "../operators/audit";
import { createHash } from "node:crypto";
import { mkdir, readFile, rm, writeFile } from "node:fs/promises";
import path from "node:path";
import type { Kysely, Transaction } from "kysely";
import { IMAGE_EXTENSIONS, type ImageType } from "../../protocol/image-type";
import { UPLOAD_QUOTA_BYTES, UPLOAD_QUOTA_DAYS, UPLOADS_PER_DAY } from "../../protocol/limits";
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

  /**
   * Refuses the member's next `images` uploads when they may not upload them: their verification
   * is in review or approved (an upload is for KYC only), or their quota is full with `bytes` more
   * (in all, or in the last 24 hours). The API asks it before reading a body (`bytes` 0); storing
   * asks it again under the member's lock with the images' sizes.
   */
  async checkUploads(memberId: string, images: { count: number; bytes: number }, now: number, db: Kysely<Database> = this.db): Promise<void> {
    const current = await this.status(memberId, db);
    if (current.status === KYC_STATUS.review || current.status === KYC_STATUS.approved) throw Refusal.of(ResultCode.CONFLICT, "errors.kyc_pending");
    const dayAgo = new Date(now - 24 * 60 * 60_000);
    const quotaWindowStart = new Date(now - UPLOAD_QUOTA_DAYS * 24 * 60 * 60_000);
    const used = await db
      .selectFrom("upload")
      .select((eb) => [
        // Over a rolling window, not the member's whole history: rejected tries must not lock a
        // member out of verification for good, and the disk still takes at most the quota a month.
        eb.fn.coalesce(eb.fn.sum<string | number>("size").filterWhere("created_at", ">", quotaWindowStart), eb.lit(0)).as("bytes"),
        eb.fn.countAll<string | number>().filterWhere("created_at", ">", dayAgo).as("today"),
      ])
      .where("member_id", "=", memberId)
      .executeTakeFirstOrThrow();
    if (Number(used.today) + images.count > UPLOADS_PER_DAY) throw Refusal.of(ResultCode.TOO_MANY_REQUESTS, "errors.upload_daily", { count: UPLOADS_PER_DAY });
    // Before the body is read the images' size is not known (0): refused when not a byte is left.
    if (Number(used.bytes) + Math.max(images.bytes, 1) > UPLOAD_QUOTA_BYTES)
      throw Refusal.of(ResultCode.FORBIDDEN, "errors.upload_quota", { megabytes: UPLOAD_QUOTA_BYTES / (1024 * 1024), days: UPLOAD_QUOTA_DAYS });
  }

  /** Stores an image (its type already checked by content) and answers its upload id. */
  async saveUpload(memberId: string, image: UploadedImage, now: number) {
    const [id] = await this.store(memberId, [image], now);
    return { id: id!, mime: image.mime, size: image.buffer.length };
  }

  /**
   * The web form's submission in one call: the three images (their types checked by content) and
   * the phone are stored with the submission, or, if any of it is refused, nothing is.
   */
  async submitWithImages(
    memberId: string,
    input: { front: UploadedImage; back: UploadedImage; hand: UploadedImage; phone: string },
    now: number,
  ): Promise<void> {
    await this.store(memberId, [input.front, input.back, input.hand], now, async (trx, [frontId, backId, handId]) => {
      await insertSubmission(trx, memberId, { frontId: frontId!, backId: backId!, handId: handId!, phone: input.phone }, now);
    });
  }

  /** Submits three of the member's own uploads for review; refused while one is in review or approved. */
  async submit(memberId: string, input: { frontId: string; backId: string; handId: string; phone: string }, now: number): Promise<void> {
    const current = await this.status(memberId);
    if (current.status === KYC_STATUS.review || current.status === KYC_STATUS.approved) throw Refusal.of(ResultCode.CONFLICT, "errors.kyc_pending");
    const ids = [input.frontId, input.backId, input.handId];
    const owned = await this.db.selectFrom("upload").select("id").where("member_id", "=", memberId).where("id", "in", ids).execute();
    if (new Set(owned.map((u) => u.id)).size !== new Set(ids).size || new Set(ids).size !== 3)
      throw Refusal.of(ResultCode.BAD_REQUEST, "errors.upload_missing");
    await insertSubmission(this.db, memberId, input, now);
  }

  /** The member's latest submission as the status page shows it (status 0: none yet). */
  async status(memberId: string, db: Kysely<Database> = this.db): Promise<KycStatus> {
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

  /** The operator's decision on the member's submission in review (`uid` names the member in the refusals). */
  async review(memberId: string, uid: string, input: { decision: "approve" | "reject"; reason?: string }, now: number, act: OperatorAct): Promise<KycStatus> {
    if (input.decision === "reject" && !input.reason) throw Refusal.plain(ResultCode.BAD_REQUEST, "reason: a rejection needs a reason");
    const decided = input.decision === "approve" ? KYC_STATUS.approved : KYC_STATUS.rejected;
    // The decision, the member's notification and the audit row commit together. Only a submission
    // still in review is decided: of two reviewers at once, one wins and the other is told so.
    await this.db.transaction().execute(async (trx) => {
      const pending = await trx
        .selectFrom("kyc_submission")
        .select(["id", "status"])
        .where("member_id", "=", memberId)
        .orderBy("id", "desc")
        .forUpdate()
        .executeTakeFirst();
      if (!pending || pending.status !== KYC_STATUS.review) {
        const state = pending ? ` (it is ${pending.status === KYC_STATUS.approved ? "approved" : "rejected"} already)` : "";
        throw Refusal.plain(ResultCode.CONFLICT, `member ${uid} has no submission in review${state}`, pending ? "DECIDED_ALREADY" : "CONFLICT");
      }
      await trx
        .updateTable("kyc_submission")
        .set({ status: decided, reason: input.reason ?? null, reviewed_at: new Date(now) })
        .where("id", "=", pending.id)
        .execute();
      await this.notices?.record(
        trx,
        input.decision === "approve" ? { memberId, type: "kyc_approved" } : { memberId, type: "kyc_rejected", params: { reason: input.reason ?? "" } },
        now,
      );
      await act.write(
        trx,
        `member:${uid}`,
        { kyc: "review" },
        { kyc: input.decision === "approve" ? "approved" : "rejected", ...(input.reason ? { reason: input.reason } : {}) },
        now,
      );
    });
    this.notices?.told(memberId);
    return this.status(memberId);
  }

  /** Submissions waiting for a decision, oldest first (the console's queue). */
  async queue(limit = 200) {
    const rows = await this.db
      .selectFrom("kyc_submission as k")
      .innerJoin("member as m", "m.id", "k.member_id")
      .select(["m.uid", "m.email", "m.phone as memberPhone", "k.phone", "k.submitted_at", "k.front_upload_id", "k.back_upload_id", "k.hand_upload_id"])
      .where("k.status", "=", KYC_STATUS.review)
      .orderBy("k.id")
      .limit(limit)
      .execute();
    return rows.map((row) => ({
      uid: row.uid,
      account: row.email ?? row.memberPhone ?? "",
      phone: row.phone,
      submittedAt: new Date(row.submitted_at).toISOString(),
      images: [
        { id: String(row.front_upload_id), kind: "front" as const },
        { id: String(row.back_upload_id), kind: "back" as const },
        { id: String(row.hand_upload_id), kind: "hand" as const },
      ],
    }));
  }

  /**
   * One image of a submission waiting for review, for its reviewer (null: no such image in the
   * queue). Decided submissions and uploads never submitted are not served: a reviewer sees the
   * documents of the queue, not every member's by stepping through ids.
   */
  async image(id: string): Promise<{ mime: string; base64: string } | null> {
    const row = await this.db
      .selectFrom("upload as u")
      .innerJoin("kyc_submission as k", (join) =>
        join.on((eb) =>
          eb.or([eb("k.front_upload_id", "=", eb.ref("u.id")), eb("k.back_upload_id", "=", eb.ref("u.id")), eb("k.hand_upload_id", "=", eb.ref("u.id"))]),
        ),
      )
      .select(["u.stored_name", "u.mime"])
      .where("u.id", "=", id)
      .where("k.status", "=", KYC_STATUS.review)
      .executeTakeFirst();
    if (!row) return null;
    const bytes = await readFile(path.join(this.uploadDir, row.stored_name)).catch(() => null);
    return bytes && { mime: row.mime, base64: bytes.toString("base64") };
  }

  /**
   * Stores images for the member, with `andThen`'s rows (a submission) in the same transaction.
   * Under the member's row lock (two uploads at once cannot both pass the quota) the checks run
   * again with the images' sizes, then the rows are inserted; the files are written last, only
   * when everything else was taken, and removed again if anything after them fails. A file that
   * was there already (the same image, stored by its digest) is someone's row's: it stays.
   */
  private async store(
    memberId: string,
    images: UploadedImage[],
    now: number,
    andThen?: (trx: Transaction<Database>, ids: string[]) => Promise<void>,
  ): Promise<string[]> {
    const written: string[] = [];
    try {
      return await this.db.transaction().execute(async (trx) => {
        await trx.selectFrom("member").select("id").where("id", "=", memberId).forUpdate().executeTakeFirstOrThrow();
        await this.checkUploads(memberId, { count: images.length, bytes: images.reduce((sum, image) => sum + image.buffer.length, 0) }, now, trx);
        const files = images.map(({ buffer, mime }) => {
          const sha256 = createHash("sha256").update(buffer).digest("hex");
          return { buffer, mime, sha256, storedName: path.join(memberId, `${sha256}.${IMAGE_EXTENSIONS[mime]}`) };
        });
        const ids: string[] = [];
        for (const { buffer, mime, sha256, storedName } of files) {
          const row = await trx
            .insertInto("upload")
            .values({ member_id: memberId, purpose: "kyc", stored_name: storedName, mime, size: buffer.length, sha256, created_at: new Date(now) })
            .returning("id")
            .executeTakeFirstOrThrow();
          ids.push(row.id);
        }
        await andThen?.(trx, ids);
        await mkdir(path.join(this.uploadDir, memberId), { recursive: true });
        for (const { buffer, storedName } of files) {
          const file = path.join(this.uploadDir, storedName);
          if (await writeNewFile(file, buffer)) written.push(file);
        }
        return ids;
      });
    } catch (error) {
      await Promise.all(written.map((file) => rm(file, { force: true })));
      throw error;
    }
  }
}

/** An uploaded image whose type was taken from its content. */
export interface UploadedImage {
  buffer: Buffer;
  mime: ImageType;
}

async function insertSubmission(
  db: Kysely<Database>,
  memberId: string,
  input: { frontId: string; backId: string; handId: string; phone: string },
  now: number,
): Promise<void> {
  await db
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

/** Writes a file that is not there yet (false: it is, with the same content, as its name is its digest). */
async function writeNewFile(file: string, buffer: Buffer): Promise<boolean> {
  try {
    await writeFile(file, buffer, { mode: 0o600, flag: "wx" });
    return true;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "EEXIST") return false;
    throw error;
  }
}
