/** The largest request body gatehouse reads (docs/contract.md: more than 64 KiB is 413 `request.too-large`). */
export const BODY_LIMIT_BYTES = 65_536;

/** What the 413 says, in the answer and in the OpenAPI document's example of it. */
export const BODY_TOO_LARGE_MESSAGE = `body must not exceed ${BODY_LIMIT_BYTES} bytes`;
