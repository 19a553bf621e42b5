import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { request, type Server } from "node:http";
import { tmpdir } from "node:os";
import path from "node:path";
import zlib from "node:zlib";
import express from "express";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { chooseCopy, encodingWeights, precompressed } from "./precompressed.mjs";

const SCRIPT = `export const answer = ${JSON.stringify("forty-two ".repeat(100))};\n`;
let dir: string;
let server: Server;
let origin: string;

beforeAll(async () => {
  dir = mkdtempSync(path.join(tmpdir(), "precompressed-"));
  mkdirSync(path.join(dir, "_shared"));
  const file = path.join(dir, "_shared", "chunk-A.js");
  writeFileSync(file, SCRIPT);
  writeFileSync(`${file}.gz`, zlib.gzipSync(SCRIPT));
  writeFileSync(`${file}.br`, zlib.brotliCompressSync(SCRIPT));
  writeFileSync(path.join(dir, "plain.js"), SCRIPT);
  const app = express();
  const options = { immutable: true, maxAge: "1y" };
  app.use("/build", precompressed(dir, options), express.static(dir, options));
  // What Remix answers for a path no file serves.
  app.use((_req, res) => res.status(404).type("text/plain").send("Not found"));
  await new Promise<void>((resolve) => {
    server = app.listen(0, "127.0.0.1", () => resolve());
  });
  const address = server.address();
  origin = `http://127.0.0.1:${typeof address === "object" && address ? address.port : 0}`;
});

afterAll(() => {
  server.close();
  rmSync(dir, { recursive: true, force: true });
});

function get(urlPath: string, acceptEncoding?: string, method = "GET") {
  return new Promise<{ status: number; headers: Record<string, string | string[] | undefined>; body: Buffer }>((resolve, reject) => {
    const req = request(origin + urlPath, { method, headers: acceptEncoding === undefined ? {} : { "accept-encoding": acceptEncoding } }, (res) => {
      const chunks: Buffer[] = [];
      res.on("data", (c: Buffer) => chunks.push(c));
      res.on("end", () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks) }));
    });
    req.on("error", reject);
    req.end();
  });
}

describe("precompressed assets (decision 037)", () => {
  it("sends brotli to a browser that takes it, with the script's type and a Vary", async () => {
    const res = await get("/build/_shared/chunk-A.js", "gzip, deflate, br, zstd");
    expect(res.status).toBe(200);
    expect(res.headers["content-encoding"]).toBe("br");
    expect(res.headers["content-type"]).toMatch(/javascript/);
    expect(res.headers.vary).toMatch(/Accept-Encoding/i);
    expect(res.headers["cache-control"]).toMatch(/immutable/);
    expect(zlib.brotliDecompressSync(res.body).toString()).toBe(SCRIPT);
  });

  it("sends gzip when brotli is not taken, and the file itself when neither is", async () => {
    const gz = await get("/build/_shared/chunk-A.js?v=1", "gzip, br;q=0");
    expect(gz.headers["content-encoding"]).toBe("gzip");
    expect(zlib.gunzipSync(gz.body).toString()).toBe(SCRIPT);
    for (const header of [undefined, "identity", "deflate"]) {
      const plain = await get("/build/_shared/chunk-A.js", header);
      expect(plain.headers["content-encoding"], String(header)).toBeUndefined();
      expect(plain.body.toString()).toBe(SCRIPT);
    }
  });

  it("answers HEAD like GET and leaves files without copies to the static server", async () => {
    const head = await get("/build/_shared/chunk-A.js", "br", "HEAD");
    expect(head.headers["content-encoding"]).toBe("br");
    expect(head.body.length).toBe(0);
    const plain = await get("/build/plain.js", "gzip, br");
    expect(plain.headers["content-encoding"]).toBeUndefined();
    expect(plain.body.toString()).toBe(SCRIPT);
    expect((await get("/build/missing.js", "br")).status).toBe(404);
  });

  it("a copy removed since the start: the request goes on as it came, without an encoding", async () => {
    rmSync(path.join(dir, "_shared", "chunk-A.js.br"));
    const res = await get("/build/_shared/chunk-A.js", "br");
    expect(res.headers["content-encoding"]).toBeUndefined();
    expect(res.body.toString()).toBe(SCRIPT);
    writeFileSync(path.join(dir, "_shared", "chunk-A.js.br"), zlib.brotliCompressSync(SCRIPT));
    rmSync(path.join(dir, "plain.js"));
    const gone = await get("/build/plain.js", "br");
    expect(gone.status).toBe(404);
    expect(gone.headers["content-encoding"]).toBeUndefined();
    writeFileSync(path.join(dir, "plain.js"), SCRIPT);
  });

  it("reads Accept-Encoding's weights and follows the client's preference", () => {
    const weight = encodingWeights("gzip;q=0.5, br;Q=0, *;q=0.1");
    expect(weight("gzip")).toBe(0.5);
    expect(weight("br")).toBe(0);
    expect(weight("zstd")).toBe(0.1);
    expect(encodingWeights(undefined)("gzip")).toBe(0);
    expect(encodingWeights("*")("br")).toBe(1);
    const both = ["br", "gzip"];
    expect(chooseCopy(both, "gzip, deflate, br, zstd")?.encoding).toBe("br");
    expect(chooseCopy(both, "gzip;q=1, br;q=0.1")?.encoding).toBe("gzip");
    expect(chooseCopy(both, "br;q=0, gzip;q=0")).toBeNull();
    expect(chooseCopy(["gzip"], "br")).toBeNull();
  });
});
