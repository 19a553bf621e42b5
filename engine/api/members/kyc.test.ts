import type { FastifyInstance } from "fastify";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { buildApp } from "../../app";
import { openTestStore, testStoreKinds, type TestStore } from "../../testing/test-stores";
import { createServices } from "../context";
import { endpoints } from "../../../protocol/endpoints";
import { ApiClient } from "../../testing/api-client";
import { registerAndLogIn, TEST_ADMIN_TOKEN } from "../../testing/api-members";

const PNG = Buffer.from(
  "89504e470d0a1a0a0000000d49484452000000010000000108060000001f15c4890000000d49444154789c6360f8ffff3f0005fe02fea7d6a4c80000000049454e44ae426082",
  "hex",
);

function multipart(name: string, content: Buffer, filename: string) {
  const boundary = "----kyc-test-boundary";
  const body = Buffer.concat([
    Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="type"\r\n\r\n0\r\n`),
    Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="${name}"; filename="${filename}"\r\nContent-Type: image/png\r\n\r\n`),
    content,
    Buffer.from(`\r\n--${boundary}--\r\n`),
  ]);
  return { body, contentType: `multipart/form-data; boundary=${boundary}` };
}

describe.each(testStoreKinds())("KYC on %s", (kind) => {
  let store: TestStore;
  let app: FastifyInstance;
  let client: ApiClient;
  const adminToken = TEST_ADMIN_TOKEN;

  beforeAll(async () => {
    store = await openTestStore(kind);
    app = await buildApp({ store, apiHead: "mjkj-web", services: createServices({ devMailbox: true, siteName: async () => "Meridian Exchange", adminToken }) });
    await app.ready();
    client = new ApiClient(app);
  });
  afterAll(async () => {
    await app?.close();
    await store?.dispose();
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
});
