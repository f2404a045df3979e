/** Sellers' reports on screening results, written by the feedback route and read by the admin export. */
import { DynamoDbFeedbackStore } from '../adapters/aws/dynamodb-feedback-store';
import { type AppConfig, loadConfig } from '../config';
import type { FeedbackStore } from '../ports';
import { documentClientOf } from './metering';

export function buildFeedbackStore(config: AppConfig, doc = documentClientOf(config)): FeedbackStore {
  return new DynamoDbFeedbackStore(doc, config.tables.feedback);
}

let processFeedback: FeedbackStore | undefined;

export function feedbackStore(): FeedbackStore {
  processFeedback ??= buildFeedbackStore(loadConfig());
  return processFeedback;
}
