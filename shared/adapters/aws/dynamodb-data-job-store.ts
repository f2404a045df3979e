/**
 * The data jobs' state on DynamoDB, beside the batches they apply: table data-batches, `scope` = `jobs`,
 * `batchId` = the job's name. One item per job, updated at the end of every run.
 */
import { ConditionalCheckFailedException } from '@aws-sdk/client-dynamodb';
import { GetCommand, QueryCommand, UpdateCommand, type DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import type { DataJobName, DataJobRun, DataJobState } from '../../data-jobs/jobs';
import type { DataJobStore } from '../../ports';

const SCOPE = 'jobs';

function stateOf(item: Record<string, unknown>): DataJobState {
  const { scope: _scope, batchId, ...rest } = item;
  return { ...(rest as Omit<DataJobState, 'job'>), job: batchId as DataJobName };
}

export class DynamoDbDataJobStore implements DataJobStore {
  constructor(
    private readonly doc: DynamoDBDocumentClient,
    private readonly table: string,
  ) {}

  async get(job: DataJobName): Promise<DataJobState | undefined> {
    const out = await this.doc.send(
      new GetCommand({ TableName: this.table, Key: { scope: SCOPE, batchId: job }, ConsistentRead: true }),
    );
    return out.Item ? stateOf(out.Item) : undefined;
  }

  async all(): Promise<DataJobState[]> {
    const out = await this.doc.send(
      new QueryCommand({
        TableName: this.table,
        KeyConditionExpression: '#scope = :scope',
        ExpressionAttributeNames: { '#scope': 'scope' },
        ExpressionAttributeValues: { ':scope': SCOPE },
        ConsistentRead: true,
      }),
    );
    return (out.Items ?? []).map(stateOf);
  }

  async recordRun(run: DataJobRun): Promise<void> {
    const names: Record<string, string> = { '#outcome': 'lastOutcome' };
    const values: Record<string, unknown> = { ':at': run.finishedAt, ':outcome': run.outcome };
    const sets = ['lastAttemptAt = :at', '#outcome = :outcome'];
    if (run.outcome === 'succeeded') {
      sets.push('lastSuccessAt = :at');
    } else {
      sets.push('lastError = :error');
      values[':error'] = run.error ?? 'failed';
    }
    // A failed run may still have applied some days: its data date and detail are kept too.
    sets.push('lastDetail = :detail');
    values[':detail'] = run.detail;
    if (run.appliedThrough) {
      sets.push('appliedThrough = :through');
      values[':through'] = run.appliedThrough;
    }
    const removeError = run.outcome === 'succeeded' ? ' REMOVE lastError' : '';
    await this.doc.send(
      new UpdateCommand({
        TableName: this.table,
        Key: { scope: SCOPE, batchId: run.job },
        UpdateExpression: `SET ${sets.join(', ')}${removeError}`,
        ExpressionAttributeNames: names,
        ExpressionAttributeValues: values,
      }),
    );
  }

  async startFrom(job: DataJobName, day: string): Promise<void> {
    try {
      await this.doc.send(
        new UpdateCommand({
          TableName: this.table,
          Key: { scope: SCOPE, batchId: job },
          UpdateExpression: 'SET appliedThrough = :day',
          ConditionExpression: 'attribute_not_exists(appliedThrough) OR appliedThrough < :day',
          ExpressionAttributeValues: { ':day': day },
        }),
      );
    } catch (error) {
      if (!(error instanceof ConditionalCheckFailedException)) throw error;
    }
  }
}
