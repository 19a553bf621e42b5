/**
 * Limits of the protocol that the browser reads too, without zod (decision 034): the modules that
 * define the wire's schemas re-export them.
 */

/** Spec §9: at most this many notifications are stacked on screen; a fifth closes the oldest. */
export const NOTICE_STACK = 4;

/** The longest search text (a coin's name fits; a pasted paragraph does not). */
export const SEARCH_MAX_LENGTH = 20;

/** Spec §9: an ID image is at most 5 MB (the web form checks it before the engine is called; the engine as it reads the upload). */
export const MAX_ID_IMAGE_BYTES = 5 * 1024 * 1024;

/**
 * What one member's uploads may take on the disk within {@link UPLOAD_QUOTA_DAYS} days: four full KYC submissions (three images
 * of at most 5 MB each), room for a rejection and several tries. A security probe filled the
 * disk through uploads nothing limited; past this, the engine refuses an upload before storing it.
 */
export const UPLOAD_QUOTA_BYTES = 4 * 3 * MAX_ID_IMAGE_BYTES;

/** The quota's window: uploads older than this no longer count (rejected tries never lock a member out for good). */
export const UPLOAD_QUOTA_DAYS = 30;

/** Uploads of one member in 24 hours: three full KYC submissions (a rejection and two more tries in a day). */
export const UPLOADS_PER_DAY = 9;

/** An order's size in whole contracts, as typed: 1 to 99,999,999 written without leading zeros (the 10,000,000 limit is checked apart). */
export const WHOLE_CONTRACTS_PATTERN = /^[1-9]\d{0,7}$/;
