import { EventEmitter } from "node:events";
import http from "node:http";
import type { AddressInfo } from "node:net";
import { Readable } from "node:stream";
import { createReadableStreamFromReadable } from "@remix-run/node";
import { describe, expect, it } from "vitest";
import { MAX_ID_IMAGE_BYTES } from "#protocol/image-type";
import { KYC_FILE_FIELDS } from "../app/lib/forms/kyc";
import {
  bodyLimit,
  FORM_BODY_LIMIT,
  guardActions,
  isBodyTooLargeError,
  isCrossSiteWrite,
  isUnreadableBodyError,
  limitBody,
  securityHeaders,
  unreadableFormReason,
  UPLOAD_BODY_LIMIT,
} from "./guards.mjs";

const req = (method: string, headers: Record<string, string>) => ({ method, headers: { host: "exchange.example", ...headers } });

describe("web request guards (issue 9)", () => {
  it("refuses state-changing requests from another site, data requests included", () => {
    expect(isCrossSiteWrite(req("POST", { origin: "https://evil.example" }))).toBe(true);
    expect(isCrossSiteWrite(req("POST", { origin: "null" }))).toBe(true);
    expect(isCrossSiteWrite(req("POST", { "sec-fetch-site": "cross-site" }))).toBe(true);
    expect(isCrossSiteWrite(req("POST", { "sec-fetch-site": "same-site" }))).toBe(true);
    expect(isCrossSiteWrite(req("DELETE", { origin: "http://exchange.example.evil.example" }))).toBe(true);
    // Same origin, a browser without Origin on same-origin, a non-browser client, a safe method.
    expect(isCrossSiteWrite(req("POST", { origin: "https://exchange.example" }))).toBe(false);
    expect(isCrossSiteWrite(req("POST", { "sec-fetch-site": "same-origin" }))).toBe(false);
    expect(isCrossSiteWrite(req("POST", {}))).toBe(false);
    expect(isCrossSiteWrite(req("GET", { origin: "https://evil.example" }))).toBe(false);
    // A forwarded host cannot vouch for a foreign origin.
    expect(isCrossSiteWrite(req("POST", { origin: "https://evil.example", "x-forwarded-host": "evil.example" }))).toBe(true);
  });

  it("says why a body cannot be a form", () => {
    expect(unreadableFormReason(req("POST", { "content-type": "application/json", "content-length": "2" }))).toMatch(/not a form/);
    expect(unreadableFormReason(req("POST", { "content-type": "text/plain" }))).toMatch(/not a form/);
    expect(unreadableFormReason(req("POST", { "content-type": "multipart/form-data" }))).toMatch(/boundary/);
    expect(unreadableFormReason(req("POST", { "content-length": "12" }))).toMatch(/Content-Type/);
    expect(unreadableFormReason(req("POST", { "content-type": "application/x-www-form-urlencoded;charset=UTF-8" }))).toBeNull();
    expect(unreadableFormReason(req("POST", { "content-type": "multipart/form-data; boundary=----x" }))).toBeNull();
    expect(unreadableFormReason(req("POST", { "content-length": "0" }))).toBeNull();
    expect(unreadableFormReason(req("GET", { "content-type": "application/json" }))).toBeNull();
  });

  it("turns an action's unparseable body into a 400 and leaves other errors alone", async () => {
    const failing = (error: unknown) => ({
      routes: {
        r: {
          module: {
            action: async () => {
              throw error;
            },
            default: () => null,
          },
        },
      },
    });
    const cutOff = new Request("http://x/", {
      method: "POST",
      headers: { "content-type": "multipart/form-data; boundary=abc" },
      body: '--abc\r\nContent-Disposition: form-data; name="a"\r\n\r\nhel',
    });
    const parseError = await cutOff.formData().catch((e: unknown) => e);
    expect(isUnreadableBodyError(parseError)).toBe(true);
    const answer = await (guardActions(failing(parseError)).routes.r.module.action as () => Promise<unknown>)().catch((e: unknown) => e);
    expect(answer).toBeInstanceOf(Response);
    expect((answer as Response).status).toBe(400);
    const bug = new Error("a bug");
    await expect((guardActions(failing(bug)).routes.r.module.action as () => Promise<unknown>)()).rejects.toBe(bug);
    // Routes without an action are left as they are.
    const build = { routes: { r: { module: { default: () => null } } } };
    expect(guardActions(build).routes.r).toBe(build.routes.r);
  });
});

describe("security headers", () => {
  it("allow scripts only from this origin or with the nonce, and HSTS only over TLS", () => {
    const plain = securityHeaders("abc123", false);
    expect(plain["Content-Security-Policy"]).toContain("script-src 'self' 'nonce-abc123'");
    expect(plain["Content-Security-Policy"]).toContain("frame-ancestors 'none'");
    expect(plain["Content-Security-Policy"]).not.toContain("unsafe-eval");
    expect(plain["Strict-Transport-Security"]).toBeUndefined();
    expect(securityHeaders("abc123", true)["Strict-Transport-Security"]).toMatch(/max-age=\d+/);
  });
});

const FORM = "application/x-www-form-urlencoded";

/** A request as Node's parser feeds it (its `push`), with a socket to close, and an answer that records itself. */
function fakeExchange(headers: Record<string, string>, url = "/user/login") {
  const socket = new EventEmitter();
  const req = Object.assign(new Readable({ read() {} }), { headers, socket, url });
  const res = {
    status: 0,
    headers: {} as Record<string, string>,
    body: "",
    headersSent: false,
    writeHead(status: number, sent: Record<string, string>) {
      Object.assign(res, { status, headers: sent, headersSent: true });
      return res;
    },
    end(body: string) {
      res.body = body;
    },
  };
  let passedOn = false;
  limitBody(req as unknown as http.IncomingMessage, res as unknown as http.ServerResponse, () => (passedOn = true));
  return { req, res, socket, passedOn };
}

/** What an action does with the body: read it as a form (Remix's request over the Node stream). */
function readForm(req: Readable, type = FORM) {
  const body = createReadableStreamFromReadable(req);
  return new Request("http://x/", { method: "POST", headers: { "content-type": type }, body, duplex: "half" } as RequestInit).formData();
}

describe("body limits", () => {
  it("hold a KYC upload (three images at the engine's limit) and keep forms small", () => {
    expect(UPLOAD_BODY_LIMIT).toBeGreaterThan(KYC_FILE_FIELDS.length * MAX_ID_IMAGE_BYTES);
    expect(UPLOAD_BODY_LIMIT).toBeLessThanOrEqual(KYC_FILE_FIELDS.length * MAX_ID_IMAGE_BYTES + 2 * 1024 * 1024);
    expect(bodyLimit({ headers: { "content-type": "multipart/form-data; boundary=x" }, url: "/account/center/kyc" })).toBe(UPLOAD_BODY_LIMIT);
    expect(bodyLimit({ headers: { "content-type": "multipart/form-data; boundary=x" }, url: "/account/center/kyc?index" })).toBe(UPLOAD_BODY_LIMIT);
    // Multipart anywhere else (the login page) gets the form's limit, not the upload's.
    expect(bodyLimit({ headers: { "content-type": "multipart/form-data; boundary=x" }, url: "/user/login" })).toBe(FORM_BODY_LIMIT);
    expect(bodyLimit({ headers: { "content-type": "multipart/form-data; boundary=x" } })).toBe(FORM_BODY_LIMIT);
    expect(bodyLimit({ headers: { "content-type": FORM } })).toBe(FORM_BODY_LIMIT);
    expect(bodyLimit({ headers: {} })).toBe(FORM_BODY_LIMIT);
    expect(FORM_BODY_LIMIT).toBe(256 * 1024);
  });

  it("refuse a Content-Length over the limit with 413 before a byte of the body is read", () => {
    let read = false;
    const { req, res, passedOn } = fakeExchange({ "content-type": FORM, "content-length": String(200 * 1024 * 1024) });
    req.on("data", () => (read = true));
    req.push(Buffer.from("a=1"));
    expect(passedOn).toBe(false);
    expect(res.status).toBe(413);
    expect(res.headers.Connection).toBe("close");
    expect(res.body).toMatch(/^Payload too large: .* 256 KB\.$/);
    expect(read).toBe(false);
    // A multipart body of that size to the KYC page is the upload's limit; to the login page, the form's.
    const multipart = { "content-type": "multipart/form-data; boundary=x", "content-length": String(UPLOAD_BODY_LIMIT + 1) };
    expect(fakeExchange(multipart, "/account/center/kyc").res.body).toMatch(/16 MB/);
    expect(fakeExchange(multipart).res.body).toMatch(/256 KB/);
    // At the limit, the request goes on.
    expect(fakeExchange({ "content-type": FORM, "content-length": String(FORM_BODY_LIMIT) }).passedOn).toBe(true);
  });

  it("count a chunked body as it arrives: past the limit nothing reaches the reader, which fails once the connection closes", async () => {
    const { req, res, socket, passedOn } = fakeExchange({ "content-type": FORM, "transfer-encoding": "chunked" });
    expect(passedOn).toBe(true);
    const form = readForm(req).catch((error: unknown) => error);
    const chunk = Buffer.alloc(64 * 1024, "a");
    for (let i = 0; i < 4; i++) req.push(chunk);
    expect(res.status).toBe(0); // exactly the limit: still fine
    expect(req.push(Buffer.from("b"))).toBe(false);
    expect(res.status).toBe(413);
    expect(res.headers.Connection).toBe("close");
    // The rest, and the body's end, are dropped: the action never sees a cut-off form as whole.
    expect(req.push(chunk)).toBe(false);
    expect(req.push(null)).toBe(false);
    socket.emit("close");
    const error = await form;
    expect(isBodyTooLargeError(error)).toBe(true);
    // The action's failure is a 413 answer, not a server error.
    const failing = { routes: { r: { module: { action: () => Promise.reject(error) } } } };
    const answer = await (guardActions(failing).routes.r.module.action as () => Promise<unknown>)().catch((e: unknown) => e);
    expect((answer as Response).status).toBe(413);
  });

  it("pass a body within the limit through whole", async () => {
    const { req, res } = fakeExchange({ "content-type": FORM, "transfer-encoding": "chunked" });
    const form = readForm(req);
    req.push(Buffer.from("a=1&"));
    req.push(Buffer.from("b=2"));
    req.push(null);
    expect(Object.fromEntries(await form)).toEqual({ a: "1", b: "2" });
    expect(res.status).toBe(0);
  });

  it("over a real socket: 413 to a declared length with no body sent, and to a chunked body while it streams", async () => {
    const outcomes: unknown[] = [];
    const server = http.createServer((req, res) =>
      limitBody(req, res, () =>
        readForm(req).then(
          (form) => res.writeHead(200).end(JSON.stringify(Object.fromEntries(form))),
          (error: unknown) => outcomes.push(error),
        ),
      ),
    );
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    const { port } = server.address() as AddressInfo;
    const post = (headers: Record<string, string | number>, send: (req: http.ClientRequest) => void) =>
      new Promise<{ status: number; connection?: string; body: string }>((resolve, reject) => {
        const req = http.request({ port, host: "127.0.0.1", method: "POST", path: "/user/login", headers: { "content-type": FORM, ...headers } }, (res) => {
          let body = "";
          res.on("data", (chunk: Buffer) => (body += chunk.toString()));
          res.on("end", () => resolve({ status: res.statusCode ?? 0, connection: res.headers.connection, body }));
        });
        req.on("error", reject);
        send(req);
      });
    try {
      // Only the headers go out: the answer comes without waiting for 200 MB.
      const declared = await post({ "content-length": 200 * 1024 * 1024 }, (req) => req.flushHeaders());
      expect(declared).toMatchObject({ status: 413, connection: "close" });
      // A chunked body: 32 KB at a time, and no end; the answer comes once the limit is passed.
      const chunked = await post({ "transfer-encoding": "chunked" }, (req) => {
        const write = () => {
          if (!req.destroyed && req.write(Buffer.alloc(32 * 1024, "a"))) setImmediate(write);
          else req.once("drain", write);
        };
        req.on("error", () => {}); // the server closes the connection while the client still writes
        write();
      });
      expect(chunked).toMatchObject({ status: 413, connection: "close" });
      await expect.poll(() => outcomes.length).toBe(1);
      expect(isBodyTooLargeError(outcomes[0])).toBe(true);
      // A form within the limit is read as usual.
      const small = await post({ "transfer-encoding": "chunked" }, (req) => req.end("a=1&b=2"));
      expect(small).toMatchObject({ status: 200, body: JSON.stringify({ a: "1", b: "2" }) });
    } finally {
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    }
  });
});
