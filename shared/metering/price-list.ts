/**
 * What each operation costs and who may call it, as GET /v1/account and the OpenAPI document show it. The
 * operations charge through their own `cost` (functions/<op>/handler.ts); a test holds the two to the same figures.
 */
import type { Tier } from './tiers';

export interface PriceListEntry {
  operation: string;
  method: 'GET' | 'POST' | 'PUT' | 'DELETE';
  path: string;
  points: number;
  per: 'item' | 'call';
  minTier: Tier;
}

export const PRICE_LIST: readonly PriceListEntry[] = [
  {
    operation: 'batch-screen',
    method: 'POST',
    path: '/v1/batch-screen',
    points: 1,
    per: 'item',
    minTier: 'professional',
  },
  {
    operation: 'image-search',
    method: 'POST',
    path: '/v1/image-search',
    points: 5,
    per: 'call',
    minTier: 'professional',
  },
  {
    // A watched title is screened, and charged like batch-screen, when it is added; re-screens on new data are free.
    operation: 'put-watch',
    method: 'PUT',
    path: '/v1/watch',
    points: 1,
    per: 'item',
    minTier: 'professional',
  },
  { operation: 'get-watch', method: 'GET', path: '/v1/watch', points: 0, per: 'call', minTier: 'free' },
  {
    operation: 'delete-watch',
    method: 'DELETE',
    path: '/v1/watch/{id}',
    points: 0,
    per: 'call',
    minTier: 'free',
  },
  { operation: 'get-alerts', method: 'GET', path: '/v1/alerts', points: 0, per: 'call', minTier: 'free' },
  { operation: 'ack-alerts', method: 'POST', path: '/v1/alerts/ack', points: 0, per: 'call', minTier: 'free' },
  // Webhooks: free. Setting one and sending a delivery now (a test, a dead letter again) need the tier that can watch
  // titles; reading, removing
  // and reading the dead letters stay open to every tier (an account that moved down can still see and remove it).
  { operation: 'put-webhook', method: 'PUT', path: '/v1/webhook', points: 0, per: 'call', minTier: 'professional' },
  { operation: 'get-webhook', method: 'GET', path: '/v1/webhook', points: 0, per: 'call', minTier: 'free' },
  { operation: 'delete-webhook', method: 'DELETE', path: '/v1/webhook', points: 0, per: 'call', minTier: 'free' },
  {
    operation: 'test-webhook',
    method: 'POST',
    path: '/v1/webhook/test',
    points: 0,
    per: 'call',
    minTier: 'professional',
  },
  {
    operation: 'redeliver-webhook',
    method: 'POST',
    path: '/v1/webhook/redeliver',
    points: 0,
    per: 'call',
    minTier: 'professional',
  },
  {
    operation: 'webhook-dead-letters',
    method: 'GET',
    path: '/v1/webhook/dead-letters',
    points: 0,
    per: 'call',
    minTier: 'free',
  },
  { operation: 'account', method: 'GET', path: '/v1/account', points: 0, per: 'call', minTier: 'free' },
  { operation: 'usage', method: 'GET', path: '/v1/usage', points: 0, per: 'call', minTier: 'free' },
  { operation: 'get-allowlist', method: 'GET', path: '/v1/allowlist', points: 0, per: 'call', minTier: 'free' },
  { operation: 'put-allowlist', method: 'PUT', path: '/v1/allowlist', points: 0, per: 'call', minTier: 'free' },
];
