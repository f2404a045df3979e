/** Sellers' reports on screening results on DynamoDB: partition accountId, sort key the time-ordered feedbackId. */
import { PutCommand, paginateScan, type DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { newFeedbackId, type FeedbackRecord } from '../../feedback/feedback';
import type { FeedbackStore } from '../../ports';

export class DynamoDbFeedbackStore implements FeedbackStore {
  constructor(
    private readonly doc: DynamoDBDocumentClient,
    private readonly table: string,
  ) {}

  async add(record: FeedbackRecord): Promise<void> {
    await this.doc.send(
      new PutCommand({
        TableName: this.table,
        Item: record,
        // A new id every time: a collision must fail, never replace another report.
        ConditionExpression: 'attribute_not_exists(feedbackId)',
      }),
    );
  }

  async *all(options: { since?: Date } = {}): AsyncIterable<FeedbackRecord> {
    // Ids sort by the instant they were made; the lowest id of `since` is its stamp with nothing after it.
    const from = options.since ? newFeedbackId(options.since).slice(0, 'fb_'.length + 17) : undefined;
    const pages = paginateScan(
      { client: this.doc },
      {
        TableName: this.table,
        ...(from ? { FilterExpression: 'feedbackId >= :from', ExpressionAttributeValues: { ':from': from } } : {}),
      },
    );
    for await (const page of pages) for (const item of page.Items ?? []) yield item as FeedbackRecord;
  }
}
