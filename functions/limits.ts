/**
 * The API functions' timeout, the same in every environment (infra/config/environments.ts) and in the local
 * runtime (local/server.ts builds each Lambda context with it), so that local runs meet the deadlines AWS sets.
 */
export const API_FUNCTION_TIMEOUT_SECONDS = 15;

/**
 * The one cap on a request body: Lambda takes at most 6 MB of payload, below API Gateway's own 10 MB, so the local
 * front door and the functions' JSON reader (MAX_BODY_BYTES by default) refuse at the same size.
 */
export const MAX_REQUEST_BODY_BYTES = 6_000_000;
