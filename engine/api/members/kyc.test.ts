import { randomBytes } from "node:crypto";
import { mkdtemp, readdir, rm } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import type { FastifyInstance } from "fastify";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { buildApp } from "../../app";
import { openTestStore, testStoreKinds, type TestStore } from "../../testing/test-stores";
import { createServices, type ApiServices } from "../context";
import { endpoints } from "../../../protocol/endpoints";
import { MAX_ID_IMAGE_BYTES, UPLOAD_QUOTA_BYTES, UPLOAD_QUOTA_DAYS, UPLOADS_PER_DAY } from "../../../protocol/limits";
import { ApiClient } from "../../testing/api-client";
import { registerAndLogIn, TEST_ADMIN_TOKEN } from "../../testing/api-members";

const PNG = Buffer.from(
  "89504e470d0a1a0a0000000d49484452000000010000000108060000001f15c4890000000d49444154789c6360f8ffff3f0005fe02fea7d6a4c80000000049454e44ae426082",
  "hex",
);

function multipart(name: string, content: Buffer, filename: string) {
  return multipartOf({ type: "0", [name]: { content, filename } });
}

/** A multipart body of fields (text) and files. */
function multipartOf(parts: Record<string, string | { content: Buffer; filename: string }>) {
  const boundary = "----kyc-test-boundary";
  const body = Buffer.concat([
    ...Object.entries(parts).flatMap(([name, part]) =>
      typeof part === "string"
        ? [Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="${name}"\r\n\r\n${part}\r\n`)]
        : [
            Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="${name}"; filename="${part.filename}"\r\nContent-Type: image/png\r\n\r\n`),
            part.content,
            Buffer.from("\r\n"),
          ],
    ),
    Buffer.from(`--${boundary}--\r\n`),
  ]);
  return { body, contentType: `multipart/form-data; boundary=${boundary}` };
}

/** A PNG of `size` bytes unlike any other (the type is read from its first bytes; files are stored by digest). */
const pngOf = (size = PNG.length + 16) => Buffer.concat([PNG, randomBytes(size - PNG.length)]);

/** The files in the uploads folder, all members'. */
async function filesIn(dir: string): Promise<number> {
  const entries = await readdir(dir, { recursive: true, withFileTypes: true }).catch(() => []);
  return entries.filter((entry) => entry.isFile()).length;
}

describe.each(testStoreKinds())("KYC on %s", (kind) => {
  let store: TestStore;
  let app: FastifyInstance;
  let client: ApiClient;
  let services: ApiServices;
  let uploadDir: string;
  const adminToken = TEST_ADMIN_TOKEN;

  beforeAll(async () => {
    store = await openTestStore(kind);
    uploadDir = await mkdtemp(path.join(os.tmpdir(), "kyc-test-"));
    services = createServices({ devMailbox: true, siteName: async () => "Meridian Exchange", adminToken, uploadDir });
    app = await buildApp({ store, apiHead: "mjkj-web", services });
    await app.ready();
    client = new ApiClient(app);
  });
  afterAll(async () => {
    await app?.close();
    await store?.dispose();
    if (uploadDir) await rm(uploadDir, { recursive: true, force: true });
  });

  const member = (email: string) => registerAndLogIn(app, email, `dev-${email.replace(/\W/g, "_")}`);
  /** A raw multipart body: the upload's input is a file, not a schema. */
  const sendUpload = (token: string | undefined, contentType: string, body: Buffer | object) =>
    client.send(endpoints.upload, { body }, { token, headers: { "content-type": contentType } });
  const upload = async (token: string, content: Buffer, filename = "id.png") => {
    const { body, contentType } = multipart("file", content, filename);
    const res = await sendUpload(token, contentType, body);
    return { status: res.statusCode, body: res.json() };
  };
  const status = (token: string) => client.data(endpoints.kycStatus, { params: { key: "yhrzxx" } }, { token });
  /** The web form's submission in one multipart request. */
  const submitImages = async (token: string, parts: Parameters<typeof multipartOf>[0]) => {
    const { body, contentType } = multipartOf(parts);
    const res = await client.send(endpoints.kycSubmitImages, { body }, { token, headers: { "content-type": contentType } });
    return { status: res.statusCode, body: res.json() };
  };
  const images = () => ({
    front: { content: pngOf(), filename: "front.png" },
    back: { content: pngOf(), filename: "back.png" },
    hand: { content: pngOf(), filename: "hand.png" },
  });
  const PHONE = "+4915112345678";
  const memberId = async (email: string) => (await store.db.selectFrom("member").select("id").where("email", "=", email).executeTakeFirstOrThrow()).id;
  /** The member's upload rows: their count and bytes. */
  const uploadsOf = async (id: string) => {
    const row = await store.db
      .selectFrom("upload")
      .select((eb) => [eb.fn.countAll<string | number>().as("count"), eb.fn.coalesce(eb.fn.sum<string | number>("size"), eb.lit(0)).as("bytes")])
      .where("member_id", "=", id)
      .executeTakeFirstOrThrow();
    return { count: Number(row.count), bytes: Number(row.bytes) };
  };

  it("checks uploads by content and size", async () => {
    const { token } = await member("kyc1@example.com");
    const text = await upload(token, Buffer.from("I am a text file with a .png name"), "fake.png");
    expect(text.body).toMatchObject({ code: 400, msg: "Only JPG, JPEG, PNG, BMP or GIF images can be uploaded." });
    const big = await upload(token, Buffer.concat([PNG, Buffer.alloc(6 * 1024 * 1024)]));
    expect(big.body).toMatchObject({ code: 413, msg: "The image is larger than 5 MB." });
    const ok = await upload(token, PNG, "renamed.txt");
    expect(ok.body).toMatchObject({ code: 200, data: { mime: "image/png", size: PNG.length } });
    const anonymous = await client.send(endpoints.upload, { body: {} });
    expect(anonymous.statusCode).toBe(401);
  });

  it("answers 400 with a message to a multipart body that cannot be read (issue 9)", async () => {
    const { token } = await member("kyc-malformed@example.com");
    const { body, contentType } = multipart("file", PNG, "id.png");
    const cases: Array<[string, string, Buffer]> = [
      ["truncated mid-file", contentType, body.subarray(0, Math.floor(body.length / 2))],
      ["no boundary", "multipart/form-data", body],
      ["wrong boundary", "multipart/form-data; boundary=nothing-like-it", body],
      ["empty", contentType, Buffer.alloc(0)],
    ];
    for (const [label, type, payload] of cases) {
      const res = await sendUpload(token, type, payload);
      expect(res.statusCode, label).toBe(400);
      expect(res.json().msg, label).toMatch(/could not be read|Choose a file|choose/i);
    }
  });

  it("submits, then the operator approves or rejects with a reason", async () => {
    const alice = await member("kyc2@example.com");
    const bob = await member("kyc3@example.com");
    expect(await status(alice.token)).toMatchObject({ status: 0 });
    const ids = await Promise.all([1, 2, 3].map(async () => (await upload(alice.token, PNG)).body.data.id));
    const submit = (token: string, fileIds: string[]) =>
      client.call(endpoints.kycSubmit, { body: { frontId: fileIds[0]!, backId: fileIds[1]!, handId: fileIds[2]!, phone: "+4915112345678" } }, { token });

    // Bob cannot submit Alice's images.
    expect((await submit(bob.token, ids)).code).toBe(400);
    expect((await submit(alice.token, ids)).code).toBe(200);
    expect(await status(alice.token)).toMatchObject({ status: 1, reason: null });
    expect(await status(bob.token)).toMatchObject({ status: 0 });
    expect((await submit(alice.token, ids)).code).toBe(409);

    const review = (body: { uid: string; decision: "approve" | "reject"; reason?: string }, admin = adminToken) =>
      client.call(endpoints.adminKycReview, { body }, { admin });
    expect((await review({ uid: alice.uid, decision: "approve" }, "wrong-token-wrong-token-wrong")).status).toBe(403);
    expect((await review({ uid: alice.uid, decision: "reject" })).code).toBe(400);
    expect((await review({ uid: alice.uid, decision: "reject", reason: "The ID photo is blurred." })).data).toMatchObject({
      status: 3,
      reason: "The ID photo is blurred.",
    });
    expect(await status(alice.token)).toMatchObject({ status: 3, reason: "The ID photo is blurred." });

    const again = await Promise.all([1, 2, 3].map(async () => (await upload(alice.token, PNG)).body.data.id));
    expect((await submit(alice.token, again)).code).toBe(200);
    expect((await review({ uid: alice.uid, decision: "approve" })).data).toMatchObject({ status: 2 });
    expect(await status(alice.token)).toMatchObject({ status: 2 });
  });
  it("refuses the demo member's uploads before reading them, and stores nothing (the public login filled the disk)", async () => {
    const demo = await member("kyc-demo@example.com");
    const id = await memberId("kyc-demo@example.com");
    services.demoMemberId = id;
    try {
      const before = await filesIn(uploadDir);
      const refused = {
        code: 403,
        reason: "DEMO_LOCKED",
        msg: "The demo member cannot upload files or verify its identity. Register your own account to do so.",
      };
      expect(await upload(demo.token, pngOf())).toMatchObject({ status: 403, body: refused });
      expect(await submitImages(demo.token, { ...images(), phone: PHONE })).toMatchObject({ status: 403, body: refused });
      expect(await filesIn(uploadDir)).toBe(before);
      expect(await uploadsOf(id)).toEqual({ count: 0, bytes: 0 });
      expect(await status(demo.token)).toMatchObject({ status: 0 });
    } finally {
      services.demoMemberId = null;
    }
  });

  it("takes the web form's submission in one request, and stores nothing of one it refuses", async () => {
    const alice = await member("kyc-form@example.com");
    const id = await memberId("kyc-form@example.com");
    const before = await filesIn(uploadDir);
    const { front, back } = images();
    const refusals: Array<[string, Parameters<typeof multipartOf>[0], number, string]> = [
      ["a bad phone", { ...images(), phone: "12" }, 400, "Invalid phone number format."],
      [
        "a text file",
        { ...images(), hand: { content: Buffer.from("I am a text file"), filename: "hand.png" }, phone: PHONE },
        400,
        "Only JPG, JPEG, PNG, BMP or GIF images can be uploaded.",
      ],
      [
        "an image over 5 MB",
        { ...images(), back: { content: pngOf(MAX_ID_IMAGE_BYTES + 1), filename: "back.png" }, phone: PHONE },
        413,
        "The image is larger than 5 MB.",
      ],
      ["no third image", { front, back, phone: PHONE }, 400, "Choose an image to upload."],
    ];
    for (const [label, parts, code, msg] of refusals)
      expect(await submitImages(alice.token, parts), label).toMatchObject({ status: code, body: { code, msg } });
    expect(await filesIn(uploadDir)).toBe(before);
    expect(await uploadsOf(id)).toEqual({ count: 0, bytes: 0 });
    expect(await status(alice.token)).toMatchObject({ status: 0 });

    expect(await submitImages(alice.token, { ...images(), phone: PHONE })).toMatchObject({ status: 200, body: { code: 200 } });
    expect(await status(alice.token)).toMatchObject({ status: 1 });
    expect(await filesIn(uploadDir)).toBe(before + 3);
    // In review: another submission, or an upload, is refused and stores nothing.
    expect(await submitImages(alice.token, { ...images(), phone: PHONE })).toMatchObject({ status: 409, body: { reason: "KYC_PENDING" } });
    expect(await upload(alice.token, pngOf())).toMatchObject({ status: 409, body: { reason: "KYC_PENDING" } });
    expect(await filesIn(uploadDir)).toBe(before + 3);
    expect((await uploadsOf(id)).count).toBe(3);
  });

  it("keeps a member's uploads within a quota: so many a day, so many bytes in all; a refused one is not stored", async () => {
    const bob = await member("kyc-quota@example.com");
    const id = await memberId("kyc-quota@example.com");
    const before = await filesIn(uploadDir);
    // The probe's ten direct uploads of 5 MB: the day's last ones are refused, and not stored.
    expect((await upload(bob.token, pngOf())).status).toBe(200);
    for (let i = 1; i < UPLOADS_PER_DAY; i++) expect((await upload(bob.token, pngOf(MAX_ID_IMAGE_BYTES))).status).toBe(200);
    expect(await upload(bob.token, pngOf(MAX_ID_IMAGE_BYTES))).toMatchObject({
      status: 429,
      body: { reason: "UPLOAD_QUOTA", msg: `You have uploaded ${UPLOADS_PER_DAY} images in the last 24 hours, the most allowed. Please try again later.` },
    });
    expect(await filesIn(uploadDir)).toBe(before + UPLOADS_PER_DAY);

    // A day later: more, up to the quota in bytes; the image that would pass it is refused, and not stored.
    await store.db
      .updateTable("upload")
      .set({ created_at: new Date(Date.now() - 25 * 60 * 60_000) })
      .where("member_id", "=", id)
      .execute();
    const room = Math.floor((UPLOAD_QUOTA_BYTES - (await uploadsOf(id)).bytes) / MAX_ID_IMAGE_BYTES);
    for (let i = 0; i < room; i++) expect((await upload(bob.token, pngOf(MAX_ID_IMAGE_BYTES))).status).toBe(200);
    expect(await upload(bob.token, pngOf(MAX_ID_IMAGE_BYTES))).toMatchObject({
      status: 403,
      body: { reason: "UPLOAD_QUOTA", msg: expect.stringContaining(`${UPLOAD_QUOTA_BYTES / (1024 * 1024)} MB`) },
    });
    expect(await filesIn(uploadDir)).toBe(before + UPLOADS_PER_DAY + room);
    expect((await uploadsOf(id)).bytes).toBeLessThanOrEqual(UPLOAD_QUOTA_BYTES);

    // Past the quota's window the old uploads no longer count: rejected tries never lock a member out for good.
    await store.db
      .updateTable("upload")
      .set({ created_at: new Date(Date.now() - (UPLOAD_QUOTA_DAYS + 1) * 24 * 60 * 60_000) })
      .where("member_id", "=", id)
      .execute();
    expect((await upload(bob.token, pngOf(MAX_ID_IMAGE_BYTES))).status).toBe(200);
  }, 60_000);
});
