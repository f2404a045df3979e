/**
 * The API functions' timeout, the same in every environment (infra/config/environments.ts) and in the local
 * runtime (local/server.ts builds each Lambda context with it), so that local runs meet the deadlines AWS sets.
 */
export const API_FUNCTION_TIMEOUT_SECONDS = 15;
