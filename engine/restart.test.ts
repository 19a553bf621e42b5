import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { readEngineEnv } from "./config";
import { startEngine } from "./start-engine";
import { EngineLockedError } from "./store/engine-lock";

/** Everything a member did is still there after the engine stops and starts on the same data folder. */
describe("engine restart on the embedded database", () => {
  const dataDir = mkdtempSync(path.join(os.tmpdir(), "engine-restart-"));
  afterAll(() => rmSync(dataDir, { recursive: true, force: true }));

  it("keeps members, sessions, settings and the outbox", async () => {
    const env = readEngineEnv({ DATA_DIR: dataDir, ENGINE_PORT: "0", LOG_LEVEL: "silent", SIMULATOR: "0" } as unknown as NodeJS.ProcessEnv);
    const first = await startEngine(env);
    const api = `${first.url}/api/mjkj-web`;
    await fetch(`${api}/coin/open/send/email?email=persist@example.com&type=register`);
    const admin = { "x-admin-token": readFileSync(path.join(dataDir, "admin-token"), "utf8").trim() };
    expect((await fetch(`${api}/dev/mailbox?destination=persist@example.com`)).status).toBe(403);
    const mail = ((await (await fetch(`${api}/dev/mailbox?destination=persist@example.com`, { headers: admin })).json()) as any).data[0];
    const code = mail.subject.match(/\d{6}/)[0];
    const post = (url: string, body: unknown, token?: string) =>
      fetch(url, { method: "POST", headers: { "content-type": "application/json", ...(token ? { "blade-auth": `bearer ${token}` } : {}) }, body: JSON.stringify(body) }).then((r) => r.json() as Promise<any>);
    const { uid } = (await post(`${api}/coin/open/register`, { accountType: "email", email: "persist@example.com", code, password: "secret123" })).data;
    const grant = (await post(`${first.url}/api/blade-auth/oauth/token`, { grant_type: "password", accountType: "email", email: "persist@example.com", password: "secret123", deviceId: "persist-device-1" })).data;
    await post(`${api}/coin/member/support`, {}, grant.access_token);
    // A second engine on the same data folder is refused before it touches anything (issue 9).
    await expect(startEngine(env)).rejects.toThrow(EngineLockedError);
    expect((await fetch(`${first.url}/healthz`)).ok).toBe(true);
    await first.close();

    const second = await startEngine(env);
    const api2 = `${second.url}/api/mjkj-web`;
    const info = ((await (await fetch(`${api2}/coin/member/getMemberInfo`, { headers: { "blade-auth": `bearer ${grant.access_token}` } })).json()) as any).data;
    expect(info).toMatchObject({ uid, email: "persist@example.com", supported: 1 });
    const mails = ((await (await fetch(`${api2}/dev/mailbox?destination=persist@example.com`, { headers: admin })).json()) as any).data;
    expect(mails).toHaveLength(1);
    await second.close();
  });
});
