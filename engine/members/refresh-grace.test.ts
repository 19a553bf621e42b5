import { describe, expect, it } from "vitest";
import type { TokenGrant } from "../../protocol/member";
import { RefreshGrace } from "./refresh-grace";

const grantOf = (n: number) => ({ access_token: `a${n}`, refresh_token: `r${n}` }) as TokenGrant;

describe("a refresh token's grace after use", () => {
  it("answers the first refresh's grant to the same token within the window, and rotates again after it", async () => {
    const grace = new RefreshGrace(1_000);
    let rotations = 0;
    const rotate = async () => grantOf(++rotations);
    const first = grace.once("old", 0, rotate);
    const together = grace.once("old", 0, rotate);
    expect(await first).toBe(await together);
    expect(await grace.once("old", 1_000, rotate)).toEqual(grantOf(1));
    expect(await grace.once("other", 1_000, rotate)).toEqual(grantOf(2));
    expect(await grace.once("old", 1_001, rotate)).toEqual(grantOf(3));
    expect(rotations).toBe(3);
  });

  it("keeps no refusal and no failure: the next try asks the store again", async () => {
    const grace = new RefreshGrace(1_000);
    let calls = 0;
    expect(await grace.once("t", 0, async () => (calls++, null))).toBeNull();
    await expect(grace.once("t", 0, () => (calls++, Promise.reject(new Error("store down"))))).rejects.toThrow("store down");
    expect(await grace.once("t", 0, async () => (calls++, grantOf(1)))).toEqual(grantOf(1));
    expect(calls).toBe(3);
  });
});
