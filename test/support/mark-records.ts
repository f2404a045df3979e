/** For mark-store tests: a private pair of mark tables in the run's DynamoDB Local, and mark records to put there. */
import type { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { createDynamoDbClients } from '../../shared/adapters/aws/dynamodb-client';
import type { MarkRecord } from '../../shared/marks/mark-record';
import { createTestStack, testDynamoDbEndpoint } from './test-stack';

export async function markTables(): Promise<{
  doc: DynamoDBDocumentClient;
  tables: { marks: string; markKeys: string };
}> {
  const stack = await createTestStack();
  const doc = createDynamoDbClients({ region: 'us-east-1', endpoint: testDynamoDbEndpoint() }).doc;
  return { doc, tables: { marks: stack.config.tables.marks, markKeys: stack.config.tables['mark-keys'] } };
}

/** A live US word mark in class 25 unless told otherwise. */
export function markRecord(serial: string, markText: string, overrides: Partial<MarkRecord> = {}): MarkRecord {
  return {
    serial,
    markText,
    niceClasses: ['25'],
    statusCode: '800',
    statusCategory: 'registered',
    isLive: true,
    drawingKind: 'word',
    market: 'US',
    source: 'store-test',
    batchDate: '2026-11-01',
    ...overrides,
  };
}
