import type { TokenGrant } from "../../protocol/member";
import { digest } from "../core/members/secrets";

/**
 * How long a refresh token that was just used keeps answering: the same new grant, not another.
 * A member's browser sends the old token until the first answer's cookie arrives: two tabs, or
 * two web processes, refreshing at the same moment, or a request that left just before the
 * answer came back (decision 019). Without it the second refresh was refused and, the old access
 * token being replaced, that request found its member logged out.
 */
export const REFRESH_GRACE_MS = 10_000;

/**
 * The refreshes of the last `REFRESH_GRACE_MS`, by the digest of the refresh token used: every
 * refresh with that token in the window shares the first one's answer (also while it is still
 * running: one rotation, never two racing in the database). Kept in the engine's memory only
 * (the new tokens exist in plain text nowhere else); a restart forgets them, and a refresh in
 * flight across a restart is refused as before. A refused refresh is not kept.
 */
export class RefreshGrace {
  private readonly recent = new Map<string, { at: number; grant: Promise<TokenGrant | null> }>();

  constructor(private readonly graceMs = REFRESH_GRACE_MS) {}

  once(refreshToken: string, now: number, rotate: () => Promise<TokenGrant | null>): Promise<TokenGrant | null> {
    for (const [key, entry] of this.recent) {
      // Oldest first (insertion order): stop at the first one still in its window.
      if (now - entry.at <= this.graceMs) break;
      this.recent.delete(key);
    }
    const key = digest(refreshToken);
    const seen = this.recent.get(key);
    if (seen) return seen.grant;
    const grant = rotate();
    const entry = { at: now, grant };
    this.recent.set(key, entry);
    const forget = () => {
      if (this.recent.get(key) === entry) this.recent.delete(key);
    };
    grant.then((granted) => granted ?? forget(), forget);
    return grant;
  }
}
