import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { endpoints } from "../../protocol/endpoints";
import { readEngineEnv } from "../config";
import { startEngine, type RunningEngine } from "../start-engine";
import { ApiClient, type Caller } from "../testing/api-client";
import { registerAndLogIn } from "../testing/api-members";

/**
 * Issue 9: every endpoint of every engine group, on the whole engine, answers malformed input
 * with a 4xx and a message: never a 5xx, never a stack trace. Params, query and body get the same
 * garbage, as a visitor, a member and an operator.
 */
const GARBAGE: unknown[] = [
  undefined,
  null,
  "",
  42,
  -1,
  [],
  {},
  "x".repeat(70_000),
  "\u0000",
  "../../etc/passwd",
  "1e999",
  "NaN",
  { "": [] },
  [{ a: 1 }],
  "💥",
  "%",
  "<script>",
];

describe("malformed input to every engine endpoint", () => {
  const dataDir = mkdtempSync(path.join(os.tmpdir(), "engine-fuzz-"));
  let engine: RunningEngine;
  let member: Caller = {};
  let admin: Caller = {};
  beforeAll(async () => {
    engine = await startEngine(
      readEngineEnv({ DATA_DIR: dataDir, ENGINE_PORT: "0", LOG_LEVEL: "silent", SIMULATOR: "0", DEMO_MEMBER: "0" } as unknown as NodeJS.ProcessEnv),
    );
    admin = { admin: readFileSync(path.join(dataDir, "admin-token"), "utf8").trim() };
    member = { token: (await registerAndLogIn(engine.url, "fuzz@example.com", "fuzz-device-1", { operator: admin })).token };
  });
  afterAll(async () => {
    await engine?.close();
    rmSync(dataDir, { recursive: true, force: true });
  });

  it("answers no 5xx to any endpoint, as visitor, member and operator", async () => {
    const client = new ApiClient(engine.url);
    const failures: string[] = [];
    let requests = 0;
    for (const [name, endpoint] of Object.entries(endpoints)) {
      for (const value of GARBAGE) {
        const text = typeof value === "string" ? value.slice(0, 2_000) : (JSON.stringify(value) ?? "");
        const param = text || "x";
        const params = Object.fromEntries([...endpoint.path.matchAll(/:(\w+)/g)].map(([, key]) => [key!, param]));
        const query = Object.fromEntries(
          [
            "type",
            "symbol",
            "x",
            "email",
            "phone",
            "areaCode",
            "destination",
            "pageNo",
            "pageSize",
            "period",
            "from",
            "to",
            "coin",
            "amount",
            "account",
            "levels",
            "limit",
          ].map((k) => [k, text]),
        );
        for (const caller of [{}, member, admin]) {
          const { statusCode: status, body } = await client.send(
            endpoint,
            { params, query, body: endpoint.method === "POST" ? (value === undefined ? "{bad" : JSON.stringify(value)) : undefined },
            { ...caller, headers: endpoint.method === "POST" ? { "content-type": "application/json" } : {} },
          );
          requests++;
          if (status >= 500 || /\n\s+at .+\(.+:\d+:\d+\)/.test(body))
            failures.push(`${name} ${JSON.stringify(value)?.slice(0, 20)} → ${status}: ${body.slice(0, 120)}`);
        }
      }
    }
    expect(failures).toEqual([]);
    expect(requests).toBe(Object.keys(endpoints).length * GARBAGE.length * 3);
    expect(Object.keys(endpoints).length).toBeGreaterThan(40);
  }, 240_000);
});
