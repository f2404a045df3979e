import { createReadStream } from 'node:fs';
import path from 'node:path';
import { Readable } from 'node:stream';
import { parseLogoManifest, type ParsedLogoLine } from '../../../shared/marks/logo-manifest';

async function all(input: NodeJS.ReadableStream): Promise<ParsedLogoLine[]> {
  const out: ParsedLogoLine[] = [];
  for await (const line of parseLogoManifest(input)) out.push(line);
  return out;
}

it('reads every line of the sample manifest', async () => {
  const lines = await all(createReadStream(path.join(__dirname, '../../../data/sample/logos/logos.jsonl')));
  expect(lines.length).toBeGreaterThan(100);
  expect(lines.every((l) => l.ok)).toBe(true);
  expect(lines[0]).toEqual({
    ok: true,
    line: 1,
    logo: {
      serial: 'US-SAMPLE-000010',
      mark: '3M',
      file: 'simple-icons/3m.svg',
      nice: ['01', '16', '17'],
      is_live: true,
      source: 'simple-icons',
    },
  });
});

it('refuses a bad line with its number and keeps the others', async () => {
  const input = Readable.from([
    [
      JSON.stringify({ serial: 'A-1', mark: 'A', file: 'a.svg', nice: [9], is_live: true, source: 't' }),
      '{broken',
      JSON.stringify({ serial: 'A-2', mark: 'B', file: '../../etc/passwd', nice: [], is_live: true, source: 't' }),
      JSON.stringify({ serial: 'A-3', mark: 'C', file: 'c.png', nice: [46], is_live: true, source: 't' }),
      '',
      JSON.stringify({ serial: 'A-4', mark: 'D', file: 'd.png', nice: ['09', 9], is_live: false, source: 't' }),
    ].join('\n'),
  ]);

  const lines = await all(input);

  expect(lines.map((l) => [l.line, l.ok])).toEqual([
    [1, true],
    [2, false],
    [3, false],
    [4, false],
    [6, true],
  ]);
  expect(lines[2]).toMatchObject({ ok: false, serial: 'A-2', error: expect.stringMatching(/relative path/) });
  expect(lines[4]).toMatchObject({ ok: true, logo: { nice: ['09'], is_live: false } });
});
