/**
 * The one place that reads the environment. Validated once with zod; a missing or malformed setting stops the
 * process at start with every problem listed, rather than failing on the first request.
 */
import * as z from 'zod';
import { TABLES, tableEnvVar, type TableId } from './tables/definitions';

const positiveInt = (fallback: number) => z.coerce.number().int().positive().default(fallback);

const tableNameSchema = z.string().regex(/^[A-Za-z0-9_.-]{3,255}$/, 'must be a DynamoDB table name');

const envSchema = z.object({
  ENV_NAME: z
    .string()
    .regex(/^[a-z][a-z0-9]{0,15}$/, 'lower-case letters and digits, e.g. dev, staging, prod')
    .default('local'),
  AWS_REGION: z.string().min(1).default('us-east-1'),
  /** Set only for DynamoDB Local; unset in AWS. */
  DYNAMODB_ENDPOINT: z.url().optional(),
  SERVICE_NAME: z.string().min(1).default('trademark-risk-api'),
  METRICS_NAMESPACE: z.string().min(1).default('TrademarkRiskApi'),
  MAX_BODY_BYTES: positiveInt(6_000_000),
  RATE_LIMIT_REQUESTS: positiveInt(50),
  RATE_LIMIT_WINDOW_SECONDS: positiveInt(1),
  IDEMPOTENCY_TTL_SECONDS: positiveInt(86_400),
  /** How long an in-progress Idempotency-Key blocks a duplicate before a crashed request's lock may be taken over. */
  IDEMPOTENCY_LOCK_SECONDS: positiveInt(120),
  ...Object.fromEntries(TABLES.map((t) => [tableEnvVar(t.id), tableNameSchema])),
  /**
   * Logo indexes: a local folder (npm start, tests), or S3 (bucket and prefix) in AWS. Without one, the `indexes`
   * folder of the local state (TMK_STATE_DIR, `.local` by default), so that a test, benchmark or evaluation run with
   * a state folder of its own never touches the indexes of an `npm start`.
   */
  LOGO_INDEX_DIR: z.string().min(1).optional(),
  TMK_STATE_DIR: z.string().min(1).default('.local'),
  LOGOS_BUCKET: z.string().min(3).optional(),
  DEGRADED_INDEX_PREFIX: z.string().default('degraded-index/'),
  /**
   * The learned logo embedder (ONNX, run in-process): the primary search path, with its vectors in S3 Vectors
   * where LOGO_INDEX_*_ARN are set and in the in-process index otherwise. `none` leaves only the descriptor.
   */
  LOGO_MODEL_PATH: z.string().min(1).default('data/models/logo-embedder/logo-embedder.onnx'),
  LOGO_EMBEDDER: z.enum(['learned', 'none']).default('learned'),
  /** The CLIP primary path: all three, or none. */
  CLIP_ENDPOINT_NAME: z.string().min(1).optional(),
  LOGO_INDEX_US_ARN: z.string().startsWith('arn:').optional(),
  LOGO_INDEX_CN_ARN: z.string().startsWith('arn:').optional(),
  PRIMARY_SEARCH_BUDGET_MS: positiveInt(1500),
  /**
   * How often a warm screening instance re-reads the TRO list, the key filters and the data date, and how long it
   * trusts a cached lookup key: a completed mark batch is screened against within twice this (8 s by default).
   */
  SCREENING_REFRESH_SECONDS: positiveInt(4),
  /** Work units one batch-screen call may ask for (shared/screening/screening-work.ts). */
  SCREENING_WORK_BUDGET: positiveInt(180_000),
  /** Time kept back from the function's remaining time for the refund and the answer (the deadline margin). */
  DEADLINE_MARGIN_MS: positiveInt(1500),
  /**
   * The TRO docket job (functions/tro-docket): the Secrets Manager secret holding the CourtListener token, the API's
   * origin, the courts searched (CourtListener ids, comma-separated, in order), and the requests one run may send.
   */
  COURTLISTENER_SECRET_NAME: z.string().min(1).optional(),
  COURTLISTENER_BASE_URL: z.url().default('https://www.courtlistener.com'),
  COURTLISTENER_COURTS: z
    .string()
    .regex(/^[a-z0-9]+( *, *[a-z0-9]+)*$/, 'CourtListener court ids separated by commas, e.g. ilnd,flsd')
    .optional(),
  COURTLISTENER_MAX_CALLS: positiveInt(30),
  /** The EventBridge bus completed data batches are announced on (AWS); unset: announced in the process only. */
  DATA_EVENT_BUS_NAME: z.string().min(1).optional(),
  /** The EventBridge bus webhook events are handed to their delivery on (AWS); unset: delivered in the process. */
  WEBHOOK_EVENT_BUS_NAME: z.string().min(1).optional(),
});

export interface AppConfig {
  envName: string;
  region: string;
  dynamoDbEndpoint?: string;
  serviceName: string;
  metricsNamespace: string;
  tables: Record<TableId, string>;
  http: HttpConfig;
  screening: { refreshSeconds: number; workBudget: number };
  /** Where completed data batches are announced (AWS: an EventBridge bus); absent locally. */
  dataEvents?: { busName: string };
  /** Where alert events for webhooks are handed to their delivery (AWS: an EventBridge bus); absent locally. */
  webhookEvents?: { busName: string };
  courtListener: {
    secretName?: string;
    baseUrl: string;
    /** Absent: the job's default list. */
    courts?: string[];
    maxCallsPerRun: number;
  };
  logos: {
    indexDir: string;
    bucket?: string;
    degradedPrefix: string;
    clip?: { endpointName: string; indexArns: { US: string; CN: string } };
    /** The learned embedder's model file; absent when LOGO_EMBEDDER is `none`. */
    modelPath?: string;
    /** S3 Vectors indexes of the learned embedder (AWS); absent: the in-process index. */
    vectorIndexArns?: { US: string; CN: string };
    primaryBudgetMs: number;
  };
}

export interface HttpConfig {
  maxBodyBytes: number;
  rateLimit: { requests: number; windowSeconds: number };
  idempotency: { ttlSeconds: number; lockSeconds: number };
  /** A metered request answers (done, or refunded) this long before the function's remaining time runs out. */
  deadlineMarginMs: number;
}

export class ConfigError extends Error {}

export function loadConfig(env: NodeJS.ProcessEnv = process.env): AppConfig {
  const parsed = envSchema.safeParse(env);
  if (!parsed.success) {
    const problems = parsed.error.issues.map((i) => `  ${i.path.join('.')}: ${i.message}`).join('\n');
    throw new ConfigError(`Invalid configuration:\n${problems}`);
  }
  const e = parsed.data as z.infer<typeof envSchema> & Record<string, string>;
  const tables = Object.fromEntries(TABLES.map((t) => [t.id, e[tableEnvVar(t.id)]])) as Record<TableId, string>;
  return {
    envName: e.ENV_NAME,
    region: e.AWS_REGION,
    dynamoDbEndpoint: e.DYNAMODB_ENDPOINT,
    serviceName: e.SERVICE_NAME,
    metricsNamespace: e.METRICS_NAMESPACE,
    tables,
    screening: { refreshSeconds: e.SCREENING_REFRESH_SECONDS, workBudget: e.SCREENING_WORK_BUDGET },
    ...(e.DATA_EVENT_BUS_NAME ? { dataEvents: { busName: e.DATA_EVENT_BUS_NAME } } : {}),
    ...(e.WEBHOOK_EVENT_BUS_NAME ? { webhookEvents: { busName: e.WEBHOOK_EVENT_BUS_NAME } } : {}),
    courtListener: {
      ...(e.COURTLISTENER_SECRET_NAME ? { secretName: e.COURTLISTENER_SECRET_NAME } : {}),
      baseUrl: e.COURTLISTENER_BASE_URL,
      ...(e.COURTLISTENER_COURTS ? { courts: e.COURTLISTENER_COURTS.split(',').map((court) => court.trim()) } : {}),
      maxCallsPerRun: e.COURTLISTENER_MAX_CALLS,
    },
    logos: {
      indexDir: e.LOGO_INDEX_DIR ?? `${e.TMK_STATE_DIR}/indexes`,
      ...(e.LOGOS_BUCKET ? { bucket: e.LOGOS_BUCKET } : {}),
      degradedPrefix: e.DEGRADED_INDEX_PREFIX,
      ...(e.CLIP_ENDPOINT_NAME && e.LOGO_INDEX_US_ARN && e.LOGO_INDEX_CN_ARN
        ? {
            clip: {
              endpointName: e.CLIP_ENDPOINT_NAME,
              indexArns: { US: e.LOGO_INDEX_US_ARN, CN: e.LOGO_INDEX_CN_ARN },
            },
          }
        : {}),
      ...(e.LOGO_EMBEDDER === 'learned' ? { modelPath: e.LOGO_MODEL_PATH } : {}),
      ...(!e.CLIP_ENDPOINT_NAME && e.LOGO_INDEX_US_ARN && e.LOGO_INDEX_CN_ARN
        ? { vectorIndexArns: { US: e.LOGO_INDEX_US_ARN, CN: e.LOGO_INDEX_CN_ARN } }
        : {}),
      primaryBudgetMs: e.PRIMARY_SEARCH_BUDGET_MS,
    },
    http: {
      maxBodyBytes: e.MAX_BODY_BYTES,
      rateLimit: { requests: e.RATE_LIMIT_REQUESTS, windowSeconds: e.RATE_LIMIT_WINDOW_SECONDS },
      idempotency: { ttlSeconds: e.IDEMPOTENCY_TTL_SECONDS, lockSeconds: e.IDEMPOTENCY_LOCK_SECONDS },
      deadlineMarginMs: e.DEADLINE_MARGIN_MS,
    },
  };
}
