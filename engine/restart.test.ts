import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { endpoints } from "../protocol/endpoints";
import { readEngineEnv } from "./config";
import { startEngine } from "./start-engine";
import { EngineLockedError } from "./store/engine-lock";
import { ApiClient } from "./testing/api-client";
import { registerAndLogIn } from "./testing/api-members";

/** Everything a member did is still there after the engine stops and starts on the same data folder. */
describe("engine restart on the embedded database", () => {
  const dataDir = mkdtempSync(path.join(os.tmpdir(), "engine-restart-"));
  afterAll(() => rmSync(dataDir, { recursive: true, force: true }));

  it("keeps members, sessions, settings and the outbox", async () => {
    const env = readEngineEnv({ DATA_DIR: dataDir, ENGINE_PORT: "0", LOG_LEVEL: "silent", SIMULATOR: "0" } as unknown as NodeJS.ProcessEnv);
    const first = await startEngine(env);
    const client = new ApiClient(first.url);
    const operator = { admin: readFileSync(path.join(dataDir, "admin-token"), "utf8").trim() };
    const mailbox = { query: { destination: "persist@example.com" } };
    const { uid, token } = await registerAndLogIn(first.url, "persist@example.com", "persist-device-1", { operator });
    // The mailbox holds every address's codes: the operator's only.
    expect((await client.call(endpoints.devMailbox, mailbox)).status).toBe(403);
    await client.call(endpoints.support, { body: {} }, { token });
    // A second engine on the same data folder is refused before it touches anything (issue 9).
    await expect(startEngine(env)).rejects.toThrow(EngineLockedError);
    expect((await fetch(`${first.url}/healthz`)).ok).toBe(true);
    await first.close();

    const second = await startEngine(env);
    const again = new ApiClient(second.url);
    const info = await again.data(endpoints.memberInfo, {}, { token });
    expect(info).toMatchObject({ uid, email: "persist@example.com", supported: 1 });
    const mails = await again.data(endpoints.devMailbox, mailbox, operator);
    expect(mails).toHaveLength(1);
    await second.close();
  });
});
