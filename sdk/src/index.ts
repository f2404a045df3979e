export {
  type ApiResponse,
  type CallOptions,
  type ClientOptions,
  createClient,
  parseRetryAfter,
  TrademarkRiskClient,
} from './client';
export * from './errors';
export { OPERATIONS, type OperationBinding, type OperationId, RESPONSE_FIELDS } from './operations';
export type * from './types';
