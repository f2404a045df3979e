/** The JSON Schemas of the successful responses, as the OpenAPI document shows them. */
const string = { type: 'string' } as const;
const integer = { type: 'integer' } as const;
const boolean = { type: 'boolean' } as const;
const counts = { type: 'object', properties: { requests: integer, points: integer, units: integer } } as const;

const json = (schema: Record<string, unknown>) => ({ mediaType: 'application/json', schema });
/** An account's webhook as PUT and GET answer it (PUT adds the secret when it issues one). */
const WEBHOOK_REQUIRED = ['url', 'created_at', 'updated_at', 'secret_issued_at'];
const WEBHOOK_PROPERTIES = {
  url: string,
  created_at: { type: 'string', format: 'date-time' },
  updated_at: { type: 'string', format: 'date-time' },
  secret_issued_at: { type: 'string', format: 'date-time', description: 'When the secret in use was issued' },
} as const;

/** What a test delivery, and a dead letter sent again by id, answer. */
const TEST_DELIVERY = {
  type: 'object',
  required: ['event_id', 'url', 'delivered', 'duration_ms'],
  properties: {
    event_id: { type: 'string', description: 'The Webhook-Id the receiver was sent' },
    url: { type: 'string' },
    delivered: { type: 'boolean', description: 'true: the receiver answered 2xx' },
    status: { type: 'integer', description: "The receiver's HTTP status, when it answered" },
    error: { type: 'string', description: 'Why it was not delivered (e.g. "answered 401", a certificate error)' },
    duration_ms: { type: 'integer' },
  },
} as const;

export const RESPONSE_SCHEMAS = {
  'batch-screen': json({
    type: 'object',
    required: ['results', 'count', 'data_as_of'],
    properties: {
      results: {
        type: 'array',
        items: {
          type: 'object',
          required: ['name', 'risk', 'tro_hit', 'top_conflict'],
          properties: {
            name: string,
            risk: { type: 'string', enum: ['高', '中', '低'] },
            tro_hit: boolean,
            top_conflict: string,
            brand_words: { type: 'array', items: string },
            conflicts: {
              type: 'array',
              items: {
                type: 'object',
                properties: {
                  mark: string,
                  serial: string,
                  nice: string,
                  is_live: { enum: [0, 1] },
                  match: { enum: ['exact', 'phonetic', 'fuzzy', 'transliteration'] },
                  words: { type: 'array', items: string },
                  tro: boolean,
                  score: { type: 'number' },
                  reason: string,
                  allowlisted: boolean,
                },
              },
            },
          },
        },
      },
      count: integer,
      data_as_of: { type: 'string', format: 'date' },
    },
  }),
  'image-search': json({
    type: 'object',
    required: ['results', 'count', 'data_as_of', 'degraded'],
    properties: {
      results: {
        type: 'array',
        items: {
          type: 'object',
          properties: {
            serial: string,
            mark: string,
            score: {
              type: 'number',
              minimum: 0,
              maximum: 1,
              description:
                'The probability that the picture shows this mark (calibrated on held-out logos). Where match is absent (the CLIP option, which has no calibration), the raw cosine similarity of the best design instead.',
            },
            match: {
              enum: ['likely', 'possible', 'none'],
              description:
                'likely: score at least the calibrated threshold (right at least 95% of the time); possible: where 95% of true matches are; none: nothing registered looks like it. Absent when the search path is uncalibrated (the CLIP option): score is then a raw similarity with no verdict.',
            },
            nice: string,
            is_live: { enum: [0, 1] },
            jurisdiction: string,
            region: {
              type: 'object',
              description:
                'With "detail": true. Where in the picture the mark was found, in the pixels of the picture as sent (EXIF orientation applied; an SVG in its rendering at 512 px on the long side): left, top, width and height of what stands out from a plain background inside the best window searched, or the window itself on a busy photo.',
              required: ['x', 'y', 'width', 'height'],
              properties: { x: integer, y: integer, width: integer, height: integer },
            },
          },
        },
      },
      count: integer,
      data_as_of: string,
      degraded: boolean,
      country: string,
      source: string,
      partial: boolean,
      coverage_note: string,
    },
  }),
  account: json({
    type: 'object',
    properties: {
      account_id: string,
      name: string,
      tier: { type: 'string', enum: ['free', 'basic', 'professional', 'enterprise'] },
      balance: integer,
      rate_limit: { type: 'object', properties: { requests: integer, window_seconds: integer, remaining: integer } },
      key: { type: 'object', properties: { id: string, prefix: string } },
      created_at: string,
      operations: {
        type: 'array',
        items: {
          type: 'object',
          properties: {
            operation: string,
            method: string,
            path: string,
            points: integer,
            per: string,
            min_tier: string,
            allowed: boolean,
          },
        },
      },
    },
  }),
  usage: json({
    type: 'object',
    properties: {
      from: string,
      to: string,
      scope: { enum: ['account', 'key'] },
      records: {
        type: 'array',
        items: {
          type: 'object',
          properties: {
            id: string,
            at: string,
            kind: { enum: ['charge', 'credit', 'adjustment', 'event'] },
            operation: string,
            status: { enum: ['charged', 'refunded', 'credited', 'adjusted', 'recorded'] },
            points: integer,
            units: integer,
            request_id: string,
            key_id: string,
            note: string,
            refunded_at: string,
          },
        },
      },
      count: integer,
      next_cursor: { type: ['string', 'null'] },
      totals: {
        type: 'object',
        properties: {
          requests: integer,
          points: integer,
          units: integer,
          refunded_requests: integer,
          complete: {
            ...boolean,
            description: 'false when the range held over 100,000 records: the totals then cover the newest 100,000',
          },
          by_operation: { type: 'object', additionalProperties: counts },
          by_day: {
            type: 'array',
            items: {
              type: 'object',
              properties: { date: string, operation: string, requests: integer, points: integer, units: integer },
            },
          },
        },
      },
    },
  }),
  allowlist: json({
    type: 'object',
    properties: {
      brands: { type: 'array', items: string },
      count: integer,
      max_brands: integer,
      updated_at: { type: ['string', 'null'] },
    },
  }),
  feedback: json({
    type: 'object',
    required: ['id', 'created_at'],
    properties: {
      id: { type: 'string', description: 'The stored report, e.g. fb_20261128061502123_k3J9aQ0pLz' },
      created_at: { type: 'string', format: 'date-time' },
    },
  }),
  'put-watch': json({
    type: 'object',
    required: ['results', 'titles', 'logos', 'data_as_of'],
    properties: {
      results: {
        type: 'array',
        description: 'One per title, in the order sent.',
        items: {
          type: 'object',
          required: ['id', 'risk', 'tro_hit', 'top_conflict'],
          properties: {
            id: { type: 'string' },
            risk: { type: 'string', enum: ['高', '中', '低'] },
            tro_hit: { type: 'boolean' },
            top_conflict: { type: 'string' },
          },
        },
      },
      titles: { type: 'integer', description: 'Titles added (each charged 1 point).' },
      logos: { type: 'integer', description: 'Logos stored (free, not yet screened).' },
      data_as_of: {
        type: 'string',
        description: 'The data date the titles were screened against ("" with no titles).',
      },
    },
  }),
  'get-watch': json({
    type: 'object',
    required: ['items', 'count', 'next_cursor'],
    properties: {
      items: {
        type: 'array',
        items: {
          type: 'object',
          required: ['id', 'kind', 'added_at'],
          properties: {
            id: { type: 'string' },
            kind: { type: 'string', enum: ['title', 'logo'] },
            title: { type: 'string' },
            nice: { type: 'string' },
            image_url: { type: 'string' },
            risk: { type: 'string', enum: ['高', '中', '低'] },
            tro_hit: { type: 'boolean' },
            top_conflict: { type: 'string' },
            data_as_of: { type: 'string' },
            added_at: { type: 'string', format: 'date-time' },
            screened_at: { type: 'string', format: 'date-time' },
          },
        },
      },
      count: { type: 'integer' },
      next_cursor: { type: ['string', 'null'], description: 'Pass as cursor for the next page; null on the last.' },
    },
  }),
  'get-alerts': json({
    type: 'object',
    required: ['alerts', 'count', 'next_cursor'],
    properties: {
      alerts: {
        type: 'array',
        items: {
          type: 'object',
          required: [
            'id',
            'item_id',
            'title',
            'old_risk',
            'new_risk',
            'old_top_conflict',
            'top_conflict',
            'tro_hit',
            'market',
            'data_as_of',
            'created_at',
            'acknowledged',
          ],
          properties: {
            id: { type: 'string' },
            item_id: { type: 'string', description: 'The watched item (your id).' },
            title: { type: 'string' },
            old_risk: { type: 'string', enum: ['高', '中', '低'] },
            new_risk: { type: 'string', enum: ['高', '中', '低'] },
            old_top_conflict: { type: 'string' },
            top_conflict: { type: 'string', description: 'The conflicting mark now ("" when none is left).' },
            tro_hit: { type: 'boolean' },
            tro_case: { type: 'string' },
            market: { type: 'string' },
            data_as_of: { type: 'string', description: 'The date of the data batch that raised it.' },
            created_at: { type: 'string', format: 'date-time' },
            acknowledged: { type: 'boolean' },
          },
        },
      },
      count: { type: 'integer' },
      next_cursor: { type: ['string', 'null'] },
    },
  }),
  'delete-watch': json({
    type: 'object',
    required: ['id', 'deleted'],
    properties: {
      id: { type: 'string' },
      deleted: { type: 'boolean', description: 'false: the id was not watched (nothing changed)' },
    },
  }),
  'put-webhook': json({
    type: 'object',
    required: WEBHOOK_REQUIRED,
    properties: {
      ...WEBHOOK_PROPERTIES,
      secret: {
        type: 'string',
        description:
          'The signing secret (whsec_…), only when this call issued it (the first call, or rotate_secret: true). Never shown again.',
      },
    },
  }),
  'get-webhook': json({ type: 'object', required: WEBHOOK_REQUIRED, properties: WEBHOOK_PROPERTIES }),
  'delete-webhook': json({
    type: 'object',
    required: ['deleted'],
    properties: { deleted: { type: 'boolean', description: 'false: no webhook was set (nothing changed)' } },
  }),
  'test-webhook': json(TEST_DELIVERY),
  'redeliver-webhook': json({
    oneOf: [
      { ...TEST_DELIVERY, description: 'With id: the outcome of one try, as a test delivery answers' },
      {
        type: 'object',
        description: 'With all: the dead letters handed back to the deliverer by this call',
        required: ['requeued', 'count', 'next_cursor'],
        properties: {
          requeued: {
            type: 'array',
            items: string,
            description: 'The event ids re-queued (each removed from the dead letters; one that fails again returns)',
          },
          count: integer,
          next_cursor: {
            type: ['string', 'null'],
            description: 'Pass back as cursor with all: true for the dead letters after these; null when none is left',
          },
        },
      },
    ],
  }),
  'webhook-dead-letters': json({
    type: 'object',
    required: ['dead_letters', 'count', 'next_cursor'],
    properties: {
      dead_letters: {
        type: 'array',
        items: {
          type: 'object',
          required: ['id', 'url', 'attempts', 'last_error', 'failed_at', 'payload'],
          properties: {
            id: { type: 'string', description: 'The event id (Webhook-Id)' },
            url: { type: 'string' },
            attempts: { type: 'integer', description: 'Tries made (0: the URL was refused at delivery)' },
            last_error: { type: 'string' },
            last_status: { type: 'integer', description: "The receiver's last HTTP status, when it answered" },
            failed_at: { type: 'string', format: 'date-time' },
            payload: { type: 'object', description: 'The event as it was sent (id, type, created_at, data)' },
          },
        },
      },
      count: { type: 'integer' },
      next_cursor: { type: ['string', 'null'] },
    },
  }),
  'ack-alerts': json({
    type: 'object',
    required: ['acknowledged', 'not_found'],
    properties: {
      acknowledged: { type: 'array', items: { type: 'string' } },
      not_found: { type: 'array', items: { type: 'string' } },
    },
  }),
  status: json({
    type: 'object',
    required: ['as_of', 'markets'],
    properties: {
      as_of: { ...string, format: 'date-time', description: 'When these figures were read (kept up to 30 s)' },
      markets: {
        type: 'array',
        items: {
          type: 'object',
          required: ['market', 'sources'],
          properties: {
            market: { enum: ['US', 'CN'] },
            sources: {
              type: 'array',
              description: 'US: marks, tro, logos; CN: marks, logos',
              items: {
                type: 'object',
                required: ['source', 'data_as_of', 'batch', 'jobs'],
                properties: {
                  source: { enum: ['marks', 'tro', 'logos'] },
                  data_as_of: {
                    type: ['string', 'null'],
                    format: 'date',
                    description: 'The data date of the newest complete batch; null when there is none',
                  },
                  batch: { type: ['string', 'null'], description: 'The id of the newest complete batch' },
                  records: {
                    type: ['integer', 'null'],
                    description:
                      "marks: the count of the store's serial filter (the serials ingest added to it; a mark updated since the filter was last rebuilt counts again); null when the market has none",
                  },
                  brands: { ...integer, description: 'tro: brands on the TRO list' },
                  cases: { ...integer, description: 'tro: distinct case numbers across those brands' },
                  jobs: {
                    type: 'array',
                    description: 'The scheduled or hand-started jobs that keep this source current',
                    items: {
                      type: 'object',
                      required: [
                        'name',
                        'description',
                        'last_success_at',
                        'last_attempt_at',
                        'applied_through',
                        'overdue',
                        'last_error',
                      ],
                      properties: {
                        name: string,
                        description: string,
                        last_success_at: { type: ['string', 'null'], format: 'date-time' },
                        last_attempt_at: { type: ['string', 'null'], format: 'date-time' },
                        applied_through: {
                          type: ['string', 'null'],
                          format: 'date',
                          description: 'The last data date the job has applied, every day before it included',
                        },
                        overdue: {
                          ...boolean,
                          description:
                            'A scheduled job without a successful run within its allowed hours (or never run); false for a job started by hand',
                        },
                        last_error: {
                          type: ['string', 'null'],
                          maxLength: 300,
                          description: 'Why the last run failed; null when it succeeded',
                        },
                      },
                    },
                  },
                },
              },
            },
          },
        },
      },
    },
  }),
  openapi: json({ type: 'object', description: 'An OpenAPI 3.1 document' }),
  html: { mediaType: 'text/html', schema: { type: 'string' } },
} as const;
