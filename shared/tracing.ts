/**
 * The tracer (Powertools, X-Ray), one per process. Active in Lambda only (Powertools turns it off elsewhere): it
 * records each invocation and the AWS SDK calls of the clients given to `traced`.
 */
import { Tracer } from '@aws-lambda-powertools/tracer';

let processTracer: Tracer | undefined;

/** One tracer per process: every client and handler of the process reports into the same trace. */
export function createTracer(serviceName: string): Tracer {
  processTracer ??= new Tracer({ serviceName, captureHTTPsRequests: false });
  return processTracer;
}

/** An AWS SDK v3 client whose calls appear as subsegments of the invocation's trace. */
export function traced<T>(tracer: Tracer, client: T): T {
  return tracer.captureAWSv3Client(client);
}

export type { Tracer };
