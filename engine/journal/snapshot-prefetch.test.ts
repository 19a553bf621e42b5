import { mkdtempSync, rmSync, truncateSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { sha256 } from "./journal";
import { readSnapshotFile, writeSnapshotFile } from "./snapshot-prefetch";

describe("the data folder's copy of the newest snapshot", () => {
  const dir = mkdtempSync(path.join(os.tmpdir(), "snapshot-copy-"));
  const file = path.join(dir, "core-snapshot.json");
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it("reads back what was written, hashed from its own bytes (also text beyond ASCII)", async () => {
    const data = JSON.stringify({ version: 2, seq: 42, note: "Zürich 東京 ✓" });
    await writeSnapshotFile(file, { seq: 42, checksum: sha256(data), data });
    const read = await readSnapshotFile(file);
    expect(read).toEqual({ seq: 42, checksum: sha256(data), sha256: sha256(data), data });
  });

  it("tells a torn or foreign file: its hash is not its checksum, or it is no offer at all", async () => {
    const data = JSON.stringify({ version: 2, seq: 43, orders: "x".repeat(10_000) });
    await writeSnapshotFile(file, { seq: 43, checksum: sha256(data), data });
    truncateSync(file, 5_000);
    const torn = await readSnapshotFile(file);
    expect(torn!.sha256).not.toBe(torn!.checksum);
    writeFileSync(file, data);
    expect(await readSnapshotFile(file)).toBeNull();
    await expect(readSnapshotFile(path.join(dir, "missing.json"))).rejects.toThrow();
  });
});
