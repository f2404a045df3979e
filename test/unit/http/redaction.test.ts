import { createLogger, redactingReplacer, redactSecrets } from '../../../shared/observability';
import { pathForLog } from '../../../shared/http/request-logging';

const KEY = 'tmk_live_Ab3dEf6hIj9kLm2nOp5qRs8tUv1wXy4Z';
const RANDOM_PART = 'Ab3dEf6hIj9kLm2nOp5qRs8tUv1wXy4Z';
const BEARER_TOKEN = 'xyz-opaque.token_value';

describe('redactSecrets', () => {
  it('masks an API key inside a sentence, keeping its environment', () => {
    expect(redactSecrets(`key ${KEY} was used`)).toBe('key tmk_live_[REDACTED] was used');
  });

  it('masks every API key in the text', () => {
    const text = `${KEY},tmk_test_${'B'.repeat(32)};tmk_prod_0000`;
    expect(redactSecrets(text)).toBe('tmk_live_[REDACTED],tmk_test_[REDACTED];tmk_prod_[REDACTED]');
  });

  it('masks a bearer credential whatever its case', () => {
    expect(redactSecrets(`Authorization: Bearer ${BEARER_TOKEN}`)).toBe('Authorization: Bearer [REDACTED]');
    expect(redactSecrets(`bearer   ${BEARER_TOKEN} trailing`)).toBe('bearer   [REDACTED] trailing');
    expect(redactSecrets(`"BEARER ${BEARER_TOKEN}"`)).toBe('"BEARER [REDACTED]"');
  });

  it('masks a webhook signing secret', () => {
    const secret = `whsec_${'Zq9-_'.repeat(8)}abc`;
    expect(redactSecrets(`{"secret":"${secret}"}`)).toBe('{"secret":"whsec_[REDACTED]"}');
  });

  it('leaves ordinary text alone', () => {
    expect(redactSecrets('a bear ran; tmk_ is a prefix')).toBe('a bear ran; tmk_ is a prefix');
  });
});

describe('redactingReplacer', () => {
  const event = {
    headers: { Authorization: `Bearer ${KEY}`, 'content-type': 'application/json' },
    nested: { deeper: { authorization: 'Basic abc', list: [`Bearer ${BEARER_TOKEN}`, { note: `copied ${KEY}` }] } },
    message: `retry with Bearer ${BEARER_TOKEN}`,
    count: 3,
  };

  it('no key or bearer credential survives, at any depth', () => {
    const text = JSON.stringify(event, redactingReplacer);

    expect(text).not.toContain(RANDOM_PART);
    expect(text).not.toContain(BEARER_TOKEN);
    expect(text).not.toContain('Basic abc');
  });

  it('replaces any authorization field outright and keeps the rest', () => {
    const parsed = JSON.parse(JSON.stringify(event, redactingReplacer));

    expect(parsed).toEqual({
      headers: { Authorization: '[REDACTED]', 'content-type': 'application/json' },
      nested: {
        deeper: { authorization: '[REDACTED]', list: ['Bearer [REDACTED]', { note: 'copied tmk_live_[REDACTED]' }] },
      },
      message: 'retry with Bearer [REDACTED]',
      count: 3,
    });
  });
});

describe('the service logger', () => {
  it('writes log lines with no key or bearer credential in them, errors included', () => {
    // Arrange: the logger writes JSON lines to stdout and stderr; catch them.
    const lines: string[] = [];
    const capture = (chunk: string | Uint8Array) => {
      lines.push(String(chunk));
      return true;
    };
    const out = jest.spyOn(process.stdout, 'write').mockImplementation(capture);
    const err = jest.spyOn(process.stderr, 'write').mockImplementation(capture);
    const logger = createLogger('redaction-test');
    logger.setLogLevel('INFO');

    try {
      // Act
      logger.info('request', { event: { headers: { authorization: `Bearer ${KEY}` } }, raw: `Bearer ${BEARER_TOKEN}` });
      logger.error('failed', { error: new Error(`lookup failed for ${KEY}`) });
    } finally {
      out.mockRestore();
      err.mockRestore();
    }

    // Assert
    const output = lines.join('');
    expect(output).toContain('"message":"request"');
    expect(output).toContain('"message":"failed"');
    expect(output).toContain('tmk_live_[REDACTED]');
    expect(output).not.toContain(RANDOM_PART);
    expect(output).not.toContain(BEARER_TOKEN);
  });
});

describe('pathForLog', () => {
  const SECRET = 'AbCdEfGhIjKlMnOpQrStUvWxYz012345';

  it('decodes the path, so that a percent-encoded key is redacted like a plain one', () => {
    expect(redactSecrets(pathForLog(`/v1/keys/tmk%5Flive%5F${SECRET}`)!)).toBe('/v1/keys/tmk_live_[REDACTED]');
    expect(
      redactSecrets(
        pathForLog(`/v1/${[...`tmk_live_${SECRET}`].map((c) => `%${c.charCodeAt(0).toString(16)}`).join('')}`)!,
      ),
    ).not.toContain(SECRET.slice(0, 8));
  });

  it('masks a bare secret, an upper-cased key and a path that is not UTF-8 once decoded', () => {
    expect(pathForLog(`/v1/${SECRET}`)).toBe('/v1/[REDACTED]');
    expect(redactSecrets(pathForLog(`/v1/TMK_LIVE_${SECRET.toUpperCase().slice(0, 20)}`)!)).toBe(
      '/v1/TMK_LIVE_[REDACTED]',
    );
    expect(pathForLog(`/v1/%C0%AFtmk%5Flive%5F${SECRET}%ZZ`)).toBe('/v1/%C0%AFtmk_live_[REDACTED]%ZZ');
  });

  it('leaves ordinary paths alone and cuts long ones short', () => {
    expect(pathForLog('/v1/v1/batch-screen')).toBe('/v1/v1/batch-screen');
    expect(pathForLog(`/${'a-'.repeat(1000)}`)).toHaveLength(513);
  });
});
