/**
 * The one definition of every DynamoDB table. The CDK stateful stack and the local runtime both build their
 * tables from this list, so the two can never drift apart. Plain data: no CDK or SDK import here.
 */
export type AttributeKind = 'S' | 'N';

export interface KeyAttribute {
  name: string;
  type: AttributeKind;
}

export interface IndexDefinition {
  indexName: string;
  partitionKey: KeyAttribute;
  sortKey?: KeyAttribute;
}

export interface TableDefinition {
  /** Stable logical id, also the suffix of the physical name (`<prefix>-<id>`). */
  id: TableId;
  purpose: string;
  partitionKey: KeyAttribute;
  sortKey?: KeyAttribute;
  timeToLiveAttribute?: string;
  globalSecondaryIndexes?: IndexDefinition[];
}

export type TableId =
  | 'accounts'
  | 'api-keys'
  | 'usage'
  | 'allowlists'
  | 'idempotency'
  | 'rate-limits'
  | 'marks'
  | 'mark-keys'
  | 'tro-brands'
  | 'data-batches'
  | 'feedback'
  | 'watch-items'
  | 'watch-alerts'
  | 'webhooks';

export const TABLES: readonly TableDefinition[] = [
  {
    id: 'accounts',
    purpose: 'One item per account: tier, points balance, lifetime points granted, rate limit override.',
    partitionKey: { name: 'accountId', type: 'S' },
  },
  {
    id: 'api-keys',
    purpose: 'API keys by SHA-256 hash of the key (the key itself is never stored).',
    partitionKey: { name: 'keyHash', type: 'S' },
    globalSecondaryIndexes: [
      {
        indexName: 'byAccount',
        partitionKey: { name: 'accountId', type: 'S' },
        sortKey: { name: 'createdAt', type: 'S' },
      },
    ],
  },
  {
    id: 'usage',
    purpose: 'The points ledger: one record per charge, refund state on the same record, one per grant or top-up.',
    partitionKey: { name: 'accountId', type: 'S' },
    sortKey: { name: 'entryId', type: 'S' },
  },
  {
    id: 'allowlists',
    purpose: 'One item per account: the brands it owns or may sell, which screening does not raise on its calls.',
    partitionKey: { name: 'accountId', type: 'S' },
  },
  {
    id: 'idempotency',
    purpose: 'Idempotency-Key records: in progress or the stored first response, kept 24 hours.',
    partitionKey: { name: 'id', type: 'S' },
    timeToLiveAttribute: 'expiresAt',
  },
  {
    id: 'rate-limits',
    purpose: 'Per-account request counters, one item per fixed window, expired by TTL.',
    partitionKey: { name: 'id', type: 'S' },
    timeToLiveAttribute: 'expiresAt',
  },
  {
    id: 'marks',
    purpose: 'One canonical record per mark (`<market>#<serial>`), with the lookup keys it is filed under.',
    partitionKey: { name: 'markId', type: 'S' },
  },
  {
    id: 'mark-keys',
    purpose:
      'One item per lookup key (`<market>#e:nike`) holding a summary of every mark filed under it, so one BatchGetItem resolves 100 keys.',
    partitionKey: { name: 'lookupKey', type: 'S' },
  },
  {
    id: 'tro-brands',
    purpose: 'Brands that file Schedule A TRO suits: plaintiffs, case count, last filing date, sources.',
    partitionKey: { name: 'brandKey', type: 'S' },
  },
  {
    id: 'data-batches',
    purpose:
      'Every ingested data batch (running or complete, counts, data_as_of, CN coverage) and the per-market ingest lock.',
    partitionKey: { name: 'scope', type: 'S' },
    sortKey: { name: 'batchId', type: 'S' },
  },
  {
    id: 'feedback',
    purpose:
      "Sellers' reports on screening results (false alarm, missed brand, wrong mark), per account, by a time-ordered id.",
    partitionKey: { name: 'accountId', type: 'S' },
    sortKey: { name: 'feedbackId', type: 'S' },
  },
  {
    id: 'watch-items',
    purpose: "Sellers' watched listing titles and logos with each title's last screening result, per account.",
    partitionKey: { name: 'accountId', type: 'S' },
    sortKey: { name: 'itemId', type: 'S' },
  },
  {
    id: 'watch-alerts',
    purpose: 'Alerts: a watched title whose result changed with a data batch, per account, by a time-ordered id.',
    partitionKey: { name: 'accountId', type: 'S' },
    sortKey: { name: 'alertId', type: 'S' },
  },
  {
    id: 'webhooks',
    purpose:
      "Per account: the webhook (`config`), each alert event's delivery claim (`event#<id>`) and the dead letters (`dead#<time>#<id>`); claims and dead letters expire by TTL.",
    partitionKey: { name: 'accountId', type: 'S' },
    sortKey: { name: 'recordId', type: 'S' },
    timeToLiveAttribute: 'expiresAt',
  },
];

export function tableDefinition(id: TableId): TableDefinition {
  const found = TABLES.find((t) => t.id === id);
  if (!found) throw new Error(`unknown table ${id}`);
  return found;
}

/** Physical table name for an environment prefix, e.g. `tmk-dev-accounts`. */
export function physicalTableName(prefix: string, id: TableId): string {
  return `${prefix}-${id}`;
}

/** The environment variable that carries a table's physical name into the functions. */
export function tableEnvVar(id: TableId): string {
  return `${id.replace(/-/g, '_').toUpperCase()}_TABLE`;
}
