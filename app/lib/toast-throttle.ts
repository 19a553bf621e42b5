/** Spec §8/§9: an error toast is shown at most once per 2 seconds. */
export const TOAST_THROTTLE_MS = 2_000;

/** Returns a gate that lets one toast through per interval; the clock is passed in (testable). */
export function createToastThrottle(intervalMs = TOAST_THROTTLE_MS) {
  let lastShownAt = -Infinity;
  return (now: number): boolean => {
    if (now - lastShownAt < intervalMs) return false;
    lastShownAt = now;
    return true;
  };
}
