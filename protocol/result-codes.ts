/**
 * Result codes carried in the envelope's `code`. The HTTP status of an answer equals its code
 * for the standard ones, so a client that only reads the status still behaves (spec §8: the code
 * comes from the body, else from the HTTP status).
 */
export const ResultCode = {
  OK: 200,
  BAD_REQUEST: 400,
  UNAUTHORIZED: 401,
  FORBIDDEN: 403,
  NOT_FOUND: 404,
  /** Pass-through rejection (spec §8): e.g. "step 1 login successful" before a second factor. */
  PASS_THROUGH: 405,
  CONFLICT: 409,
  PAYLOAD_TOO_LARGE: 413,
  TOO_MANY_REQUESTS: 429,
  INTERNAL: 500,
  UNAVAILABLE: 503,
} as const;

export type ResultCodeValue = (typeof ResultCode)[keyof typeof ResultCode];

/** The description that, like code 405, is passed through to the caller instead of toasted. */
export const STEP_ONE_LOGIN_MESSAGE = "step 1 login successful";
