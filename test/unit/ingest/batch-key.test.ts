/** Where an object lands under incoming/ says what it is: a file batch, a logo batch's manifest or one of its images. */
import fc from 'fast-check';
import { isCoverageSidecar, isLogoBatchKey, parseBatchKey, parseLogoBatchKey } from '../../../shared/ingest/batch-key';

describe('file batches: incoming/<kind>/<market>/<YYYY-MM-DD>/<file>', () => {
  it.each([
    [
      'incoming/uspto-daily/US/2026-11-20/apc261120.zip',
      { kind: 'uspto-daily', market: 'US', batchDate: '2026-11-20', fileName: 'apc261120.zip' },
    ],
    [
      'incoming/marks-jsonl/CN/2026-11-20/cn-batch.jsonl.gz',
      { kind: 'marks-jsonl', market: 'CN', batchDate: '2026-11-20', fileName: 'cn-batch.jsonl.gz' },
    ],
    [
      'incoming/tsdr/US/2026-02-28/sn76044902.xml',
      { kind: 'tsdr', market: 'US', batchDate: '2026-02-28', fileName: 'sn76044902.xml' },
    ],
    [
      'incoming/tro/US/2026-11-20/tro_brands.csv',
      { kind: 'tro', market: 'US', batchDate: '2026-11-20', fileName: 'tro_brands.csv' },
    ],
  ])('%s', (key, expected) => {
    expect(parseBatchKey(key)).toEqual(expected);
  });

  it.each([
    ['incoming/xml/US/2026-11-20/a.xml', /unknown kind "xml" \(one of uspto-daily, tsdr, marks-jsonl, tro, logos\)/],
    ['incoming/tro/JP/2026-11-20/a.csv', /unknown market "JP"/],
    ['incoming/tro/US/2026-02-30/a.csv', /"2026-02-30" is not a YYYY-MM-DD date/],
    ['incoming/tro/US/2026-11-20/', /no file name/],
    ['incoming/tro/US/2026-11-20/sub/a.csv', /expected incoming\/<kind>\/<market>\/<YYYY-MM-DD>\/<file>/],
    ['README.txt', /expected incoming\/<kind>/],
    [
      'incoming/logos/US/2026-11-20/logos.jsonl',
      /a logo batch is a folder: incoming\/logos\/<market>\/<YYYY-MM-DD>\/<batch-name>\/logos\.jsonl/,
    ],
  ])('refuses %s', (key, reason) => {
    expect(parseBatchKey(key)).toEqual({ error: expect.stringMatching(reason) });
  });
});

describe('logo batches: incoming/logos/<market>/<YYYY-MM-DD>/<batch-name>/', () => {
  it('the manifest starts the batch', () => {
    expect(parseLogoBatchKey('incoming/logos/CN/2026-11-21/week-47/logos.jsonl')).toEqual({
      market: 'CN',
      batchDate: '2026-11-21',
      batchName: 'week-47',
      manifestKey: 'incoming/logos/CN/2026-11-21/week-47/logos.jsonl',
      isManifest: true,
    });
  });

  it.each([
    'incoming/logos/US/2026-11-21/week-47/adidas.svg',
    'incoming/logos/US/2026-11-21/week-47/simple-icons/adidas.svg',
    // A manifest in a subfolder is an image path as far as the batch is concerned: only the folder's own starts it.
    'incoming/logos/US/2026-11-21/week-47/old/logos.jsonl',
    'incoming/logos/US/2026-11-21/week-47/logos.jsonl.bak',
  ])('%s is part of the batch, not its start', (key) => {
    expect(parseLogoBatchKey(key)).toEqual({
      market: 'US',
      batchDate: '2026-11-21',
      batchName: 'week-47',
      manifestKey: 'incoming/logos/US/2026-11-21/week-47/logos.jsonl',
      isManifest: false,
    });
  });

  it.each([
    [
      'incoming/logos/US/2026-11-21/logos.jsonl',
      /expected incoming\/logos\/<market>\/<YYYY-MM-DD>\/<batch-name>\/logos\.jsonl/,
    ],
    ['incoming/logos/US/2026-11-21/week-47/', /expected incoming\/logos/],
    ['incoming/logos/US/2026-11-21/week-47//a.png', /expected incoming\/logos/],
    ['incoming/logos/EU/2026-11-21/week-47/logos.jsonl', /unknown market "EU"/],
    ['incoming/logos/US/21-11-2026/week-47/logos.jsonl', /"21-11-2026" is not a YYYY-MM-DD date/],
  ])('refuses %s', (key, reason) => {
    expect(parseLogoBatchKey(key)).toEqual({ error: expect.stringMatching(reason) });
  });

  it('tells logo keys from file batch keys by the kind alone', () => {
    expect(isLogoBatchKey('incoming/logos/US/2026-11-21/week-47/logos.jsonl')).toBe(true);
    expect(isLogoBatchKey('incoming/logos-extra/US/2026-11-21/a.jsonl')).toBe(false);
    expect(isLogoBatchKey('incoming/marks-jsonl/US/2026-11-21/logos.jsonl')).toBe(false);
  });

  it('every object of a batch folder names the same manifest, and only the manifest starts it', () => {
    const segment = fc.stringMatching(/^[A-Za-z0-9._-]{1,12}$/);
    fc.assert(
      fc.property(
        fc.constantFrom('US', 'CN'),
        segment,
        fc.array(segment, { minLength: 1, maxLength: 4 }),
        (market, batchName, inFolder) => {
          const folder = `incoming/logos/${market}/2026-11-21/${batchName}`;
          const parsed = parseLogoBatchKey(`${folder}/${inFolder.join('/')}`);
          expect(parsed).toMatchObject({ market, batchName, manifestKey: `${folder}/logos.jsonl` });
          expect((parsed as { isManifest: boolean }).isManifest).toBe(inFolder.join('/') === 'logos.jsonl');
        },
      ),
    );
  });

  it('the manifest a key names parses back to itself as the manifest', () => {
    const segment = fc.stringMatching(/^[A-Za-z0-9._-]{1,12}$/);
    fc.assert(
      fc.property(segment, fc.array(segment, { minLength: 1, maxLength: 3 }), (batchName, inFolder) => {
        const image = parseLogoBatchKey(`incoming/logos/US/2026-11-21/${batchName}/${inFolder.join('/')}`);
        if ('error' in image) throw new Error(image.error);
        expect(parseLogoBatchKey(image.manifestKey)).toEqual({ ...image, isManifest: true });
      }),
    );
  });
});

it('a coverage sidecar is read with its batch, never as one', () => {
  expect(isCoverageSidecar('incoming/marks-jsonl/CN/2026-11-20/cn-batch.jsonl.gz.coverage.json')).toBe(true);
  expect(isCoverageSidecar('incoming/marks-jsonl/CN/2026-11-20/cn-batch.jsonl.gz')).toBe(false);
});
