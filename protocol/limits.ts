/**
 * Limits of the protocol that the browser reads too, without zod (decision 034): the modules that
 * define the wire's schemas re-export them.
 */

/** Spec §9: at most this many notifications are stacked on screen; a fifth closes the oldest. */
export const NOTICE_STACK = 4;

/** The longest search text (a coin's name fits; a pasted paragraph does not). */
export const SEARCH_MAX_LENGTH = 20;
