/** Mark records for store tests: a live US word mark in class 25 unless told otherwise. */
import type { MarkRecord } from '../../shared/marks/mark-record';

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
