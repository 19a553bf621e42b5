import http from "node:http";
import type { AddressInfo } from "node:net";
import type { FastifyInstance } from "fastify";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { endpoints } from "#protocol/endpoints";
import { buildApp } from "../../../engine/app";
import { openTestStore, type TestStore } from "../../../engine/testing/test-stores";
import { callEndpoint, EngineRefusal, EngineUnreachable } from "./api.server";

/**
 * The web tier's API client against a real engine (PGlite), plus a bare HTTP server to see the
 * headers it sends and to play a slow or broken engine.
 */
let store: TestStore;
let engine: FastifyInstance;
let probe: http.Server;
let seen: http.IncomingHttpHeaders[] = [];
let probeMode: "envelope-401" | "html-502" | "hang" | "echo" = "echo";
let probeUrl: string;
/** The status of every answer the engine sent. */
const engineStatuses: number[] = [];

beforeAll(async () => {
  store = await openTestStore("pglite");
  engine = await buildApp({ store, apiHead: "mjkj-web" });
  engine.addHook("onResponse", async (_request, reply) => {
    engineStatuses.push(reply.statusCode);
  });
  const address = await engine.listen({ host: "127.0.0.1", port: 0 });
  process.env.ENGINE_URL = address;
  probe = http.createServer((req, res) => {
    seen.push(req.headers);
    if (probeMode === "hang") return; // never answers
    if (probeMode === "html-502") {
      res.writeHead(502, { "content-type": "text/html" }).end("<h1>Bad gateway</h1>");
      return;
    }
    if (probeMode === "envelope-401") {
      res.writeHead(401, { "content-type": "application/json" }).end(JSON.stringify({ code: 401, success: false, msg: "expired", data: null }));
      return;
    }
    res.writeHead(200, { "content-type": "application/json" }).end(JSON.stringify({ code: 200, success: true, msg: "success", data: [] }));
  });
  await new Promise<void>((resolve) => probe.listen(0, "127.0.0.1", resolve));
  probeUrl = `http://127.0.0.1:${(probe.address() as AddressInfo).port}`;
});

afterAll(async () => {
  await engine?.close();
  await store?.dispose();
  probe?.closeAllConnections();
  await new Promise((resolve) => probe?.close(resolve));
});

/** Runs `fn` with the client pointed at another engine address. */
async function withEngineUrl<T>(url: string, fn: () => Promise<T>): Promise<T> {
  const { webEnv } = await import("../platform/env.server");
  const env = webEnv();
  const previous = env.ENGINE_URL;
  env.ENGINE_URL = url;
  try {
    return await fn();
  } finally {
    env.ENGINE_URL = previous;
  }
}

describe("API client against the engine", () => {
  it("returns checked data", async () => {
    const rates = await callEndpoint(endpoints.coinRates, {}, { lang: "en" });
    expect(rates.find((r) => r.exchange_value === "usd")?.exchange_code).toBe("$");
    const page = await callEndpoint(endpoints.getData, { params: { tableId: "sys_language" }, query: { pageSize: "-521" } }, { lang: "de" });
    expect(page.total).toBe(9);
  });

  it("turns a refusal into EngineRefusal with the server message", async () => {
    const error = await callEndpoint(endpoints.getData, { params: { tableId: "sys_language" }, query: { pageSize: "x" } }, { lang: "en" }).catch((e) => e);
    expect(error).toBeInstanceOf(EngineRefusal);
    expect(error.outcome).toMatchObject({ kind: "error", code: 400 });
    expect(error.outcome.message).toContain("pageSize");
  });

  it("sends the client credential, the token and the language headers (spec §7)", async () => {
    seen = [];
    probeMode = "echo";
    await withEngineUrl(probeUrl, () => callEndpoint(endpoints.coinRates, {}, { lang: "kr", token: "abc.def" }));
    const headers = seen[0]!;
    expect(headers.authorization).toMatch(/^Basic /);
    expect(Buffer.from(headers.authorization!.slice(6), "base64").toString()).toContain(":");
    expect(headers["blade-auth"]).toBe("bearer abc.def");
    expect(headers.lang).toBe("kr");
  });

  it("reports 401 as a logout", async () => {
    probeMode = "envelope-401";
    const error = await withEngineUrl(probeUrl, () => callEndpoint(endpoints.coinRates, {}, { lang: "en" })).catch((e) => e);
    expect(error).toBeInstanceOf(EngineRefusal);
    expect(error.outcome.kind).toBe("logout");
  });

  it("treats a refused connection, a timeout and a gateway page as unreachable", async () => {
    const closed = await withEngineUrl("http://127.0.0.1:9", () => callEndpoint(endpoints.coinRates, {}, { lang: "en" })).catch((e) => e);
    expect(closed).toBeInstanceOf(EngineUnreachable);
    probeMode = "hang";
    const slow = await withEngineUrl(probeUrl, () => callEndpoint(endpoints.coinRates, {}, { lang: "en", timeoutMs: 300 })).catch((e) => e);
    expect(slow).toBeInstanceOf(EngineUnreachable);
    probeMode = "html-502";
    const gateway = await withEngineUrl(probeUrl, () => callEndpoint(endpoints.coinRates, {}, { lang: "en" })).catch((e) => e);
    expect(gateway).toBeInstanceOf(EngineUnreachable);
  });
});

describe("public answers kept with their entity tags (decision 035)", () => {
  it("asks again with the tag, reuses the checked data on 304, and takes a changed answer", async () => {
    const statuses = engineStatuses;
    const first = await callEndpoint(endpoints.coinRates, {}, { lang: "en" });
    const second = await callEndpoint(endpoints.coinRates, {}, { lang: "en" });
    expect(second).toBe(first);
    expect(statuses.at(-1)).toBe(304);
    await store.db.updateTable("currency").set({ rate: "0.5" }).where("exchange_value", "=", "eur").execute();
    await expect
      .poll(async () => (await callEndpoint(endpoints.coinRates, {}, { lang: "en" })).find((c) => c.exchange_value === "eur")?.rate, { timeout: 3_000 })
      .toBe("0.500000000000");
    expect(statuses.at(-1)).toBe(200);
  });
});
