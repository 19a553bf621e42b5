// Without zod: the devices page's action reads this, and the browser build keeps what a route imports.

/**
 * A device session's public id: a random UUID, never a counter (decision 013: one visitor of the
 * shared demo member must not find another's session).
 */
export const DEVICE_ID_PATTERN = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
