import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { endpoints } from "../../protocol/endpoints";
import { readEngineEnv } from "../config";
import { startEngine, type RunningEngine } from "../start-engine";

/**
 * Issue 9: every endpoint of every engine group, on the whole engine, answers malformed input
 * with a 4xx and a message: never a 5xx, never a stack trace. Params, query and body get the same
 * garbage, as a visitor, a member and an operator.
 */
const GARBAGE: unknown[] = [undefined, null, "", 42, -1, [], {}, "x".repeat(70_000), "\u0000", "../../etc/passwd", "1e999", "NaN", { "": [] }, [{ a: 1 }], "💥", "%", "<script>"];

describe("malformed input to every engine endpoint", () => {
  const dataDir = mkdtempSync(path.join(os.tmpdir(), "engine-fuzz-"));
  let engine: RunningEngine;
  let member: Record<string, string> = {};
  let admin: Record<string, string> = {};
  beforeAll(async () => {
    engine = await startEngine(readEngineEnv({ DATA_DIR: dataDir, ENGINE_PORT: "0", LOG_LEVEL: "silent", SIMULATOR: "0", DEMO_MEMBER: "0" } as unknown as NodeJS.ProcessEnv));
    admin = { "x-admin-token": readFileSync(path.join(dataDir, "admin-token"), "utf8").trim() };
    const api = `${engine.url}/api/mjkj-web`;
    await fetch(`${api}/coin/open/send/email?email=fuzz@example.com&type=register`);
    const mail = ((await (await fetch(`${api}/dev/mailbox?destination=fuzz@example.com`, { headers: admin })).json()) as { data: Array<{ subject: string }> }).data[0]!;
    const post = (url: string, body: unknown) => fetch(url, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(body) }).then((r) => r.json() as Promise<{ data: { access_token: string } }>);
    await post(`${api}/coin/open/register`, { accountType: "email", email: "fuzz@example.com", code: mail.subject.match(/\d{6}/)![0], password: "secret123" });
    const grant = await post(`${engine.url}/api/blade-auth/oauth/token`, { grant_type: "password", accountType: "email", email: "fuzz@example.com", password: "secret123", deviceId: "fuzz-device-1" });
    member = { "blade-auth": `bearer ${grant.data.access_token}` };
  });
  afterAll(async () => {
    await engine?.close();
    rmSync(dataDir, { recursive: true, force: true });
  });

  it("answers no 5xx to any endpoint, as visitor, member and operator", async () => {
    const failures: string[] = [];
    let requests = 0;
    for (const [name, endpoint] of Object.entries(endpoints)) {
      for (const value of GARBAGE) {
        const text = typeof value === "string" ? value.slice(0, 2_000) : JSON.stringify(value) ?? "";
        const pathPart = (endpoint.absolute ? endpoint.path : `/api/mjkj-web/${endpoint.path}`).replace(/:(\w+)/g, () => encodeURIComponent(text || "x"));
        const query = new URLSearchParams(Object.fromEntries(["type", "symbol", "x", "email", "phone", "areaCode", "destination", "pageNo", "pageSize", "period", "from", "to", "coin", "amount", "account", "levels", "limit"].map((k) => [k, text])));
        for (const headers of [{}, member, admin]) {
          const res = await fetch(`${engine.url}${pathPart}?${query}`, {
            method: endpoint.method,
            headers: { ...headers, ...(endpoint.method === "POST" ? { "content-type": "application/json" } : {}) },
            body: endpoint.method === "POST" ? (value === undefined ? "{bad" : JSON.stringify(value)) : undefined,
          });
          const body = await res.text();
          requests++;
          if (res.status >= 500 || /\n\s+at .+\(.+:\d+:\d+\)/.test(body)) failures.push(`${name} ${JSON.stringify(value)?.slice(0, 20)} → ${res.status}: ${body.slice(0, 120)}`);
        }
      }
    }
    expect(failures).toEqual([]);
    expect(requests).toBe(Object.keys(endpoints).length * GARBAGE.length * 3);
    expect(Object.keys(endpoints).length).toBeGreaterThan(40);
  }, 240_000);
});
