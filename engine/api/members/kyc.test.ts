import type { FastifyInstance } from "fastify";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { buildApp } from "../../app";
import { openTestStore, testStoreKinds, type TestStore } from "../../testing/test-stores";
import { createServices } from "../context";
import { ADMIN_HEADERS, TEST_ADMIN_TOKEN } from "../../testing/api-members";

const API = "/api/mjkj-web";
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
  const adminToken = TEST_ADMIN_TOKEN;

  beforeAll(async () => {
    store = await openTestStore(kind);
    app = await buildApp({ store, apiHead: "mjkj-web", services: createServices({ devMailbox: true, siteName: async () => "Meridian Exchange", adminToken }) });
    await app.ready();
  });
  afterAll(async () => {
    await app?.close();
    await store?.dispose();
  });

  async function member(email: string): Promise<{ token: string; uid: string }> {
    await app.inject({ method: "GET", url: `${API}/coin/open/send/email?email=${email}&type=register` });
    const mail = (await app.inject({ method: "GET", url: `${API}/dev/mailbox?destination=${email}`, headers: ADMIN_HEADERS })).json().data[0];
    const code = mail.subject.match(/\d{6}/)[0];
    const uid = (await app.inject({ method: "POST", url: `${API}/coin/open/register`, payload: { accountType: "email", email, code, password: "secret123" } })).json().data.uid;
    const token = (
      await app.inject({ method: "POST", url: "/api/blade-auth/oauth/token", payload: { grant_type: "password", accountType: "email", email, password: "secret123", deviceId: `dev-${email.replace(/\W/g, "_")}` } })
    ).json().data.access_token;
    return { token, uid };
  }
  const upload = async (token: string, content: Buffer, filename = "id.png") => {
    const { body, contentType } = multipart("file", content, filename);
    const res = await app.inject({ method: "POST", url: `${API}/cgform-api/upload/file`, headers: { "blade-auth": `bearer ${token}`, "content-type": contentType }, payload: body });
    return { status: res.statusCode, body: res.json() };
  };
  const status = async (token: string) =>
    (await app.inject({ method: "GET", url: `${API}/coin/member/getMemberOtherData/yhrzxx`, headers: { "blade-auth": `bearer ${token}` } })).json().data;

  it("checks uploads by content and size", async () => {
    const { token } = await member("kyc1@example.com");
    const text = await upload(token, Buffer.from("I am a text file with a .png name"), "fake.png");
    expect(text.body).toMatchObject({ code: 400, msg: "Only JPG, JPEG, PNG, BMP or GIF images can be uploaded." });
    const big = await upload(token, Buffer.concat([PNG, Buffer.alloc(6 * 1024 * 1024)]));
    expect(big.body).toMatchObject({ code: 413, msg: "The image is larger than 5 MB." });
    const ok = await upload(token, PNG, "renamed.txt");
    expect(ok.body).toMatchObject({ code: 200, data: { mime: "image/png", size: PNG.length } });
    const anonymous = await app.inject({ method: "POST", url: `${API}/cgform-api/upload/file`, payload: {} });
    expect(anonymous.statusCode).toBe(401);
  });

  it("answers 400 with a message to a multipart body that cannot be read (issue 9)", async () => {
    const { token } = await member("kyc-malformed@example.com");
    const headers = (contentType: string) => ({ "blade-auth": `bearer ${token}`, "content-type": contentType });
    const { body, contentType } = multipart("file", PNG, "id.png");
    const cases: Array<[string, string, Buffer]> = [
      ["truncated mid-file", contentType, body.subarray(0, Math.floor(body.length / 2))],
      ["no boundary", "multipart/form-data", body],
      ["wrong boundary", "multipart/form-data; boundary=nothing-like-it", body],
      ["empty", contentType, Buffer.alloc(0)],
    ];
    for (const [label, type, payload] of cases) {
      const res = await app.inject({ method: "POST", url: `${API}/cgform-api/upload/file`, headers: headers(type), payload });
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
      app.inject({ method: "POST", url: `${API}/coin/member/verified`, headers: { "blade-auth": `bearer ${token}` }, payload: { frontId: fileIds[0], backId: fileIds[1], handId: fileIds[2], phone: "+4915112345678" } });

    // Bob cannot submit Alice's images.
    expect((await submit(bob.token, ids)).json().code).toBe(400);
    expect((await submit(alice.token, ids)).json().code).toBe(200);
    expect(await status(alice.token)).toMatchObject({ status: 1, reason: null });
    expect(await status(bob.token)).toMatchObject({ status: 0 });
    expect((await submit(alice.token, ids)).json().code).toBe(409);

    const review = (body: object, token = adminToken) =>
      app.inject({ method: "POST", url: "/admin/kyc/review", headers: { "x-admin-token": token }, payload: body });
    expect((await review({ uid: alice.uid, decision: "approve" }, "wrong-token-wrong-token-wrong")).statusCode).toBe(403);
    expect((await review({ uid: alice.uid, decision: "reject" })).json().code).toBe(400);
    expect((await review({ uid: alice.uid, decision: "reject", reason: "The ID photo is blurred." })).json().data).toMatchObject({ status: 3, reason: "The ID photo is blurred." });
    expect(await status(alice.token)).toMatchObject({ status: 3, reason: "The ID photo is blurred." });

    const again = await Promise.all([1, 2, 3].map(async () => (await upload(alice.token, PNG)).body.data.id));
    expect((await submit(alice.token, again)).json().code).toBe(200);
    expect((await review({ uid: alice.uid, decision: "approve" })).json().data).toMatchObject({ status: 2 });
    expect(await status(alice.token)).toMatchObject({ status: 2 });
  });
});
