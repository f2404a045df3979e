/**
 * What `npm start` says the sample corpus lacks (local/sample-coverage.ts): the sample corpus through the real ingest
 * into the in-memory stores, against the shipped brand list and a small list of known content.
 */
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { sampleCoverage, WELL_KNOWN_NAMES } from '../../../local/sample-coverage';
import { createInMemoryScreening, type InMemoryScreening } from '../../support/in-memory-screening';

let corpus: InMemoryScreening;
beforeAll(async () => {
  corpus = await createInMemoryScreening();
}, 60_000);

describe('the sample corpus against a list of brands', () => {
  it('names as absent only what neither a live mark nor the TRO list holds, once per spelling, in list order', async () => {
    const list = path.join(mkdtempSync(path.join(tmpdir(), 'coverage-')), 'brands.txt');
    // Nike and GoPro are on the TRO list; Zorbleflax and Quillorant are nobody's; "zorble flax" is Zorbleflax again.
    writeFileSync(list, ['Zorbleflax', 'Nike', 'GoPro', 'Quillorant', 'zorble flax', ''].join('\n'));

    const coverage = await sampleCoverage(corpus.stores, list);

    expect(coverage).toEqual({ listed: 4, absent: ['Zorbleflax', 'Quillorant'] });
  });

  it('holds nearly all of the established brands it was drawn around, and lacks the well-known names it was not', async () => {
    const established = await sampleCoverage(corpus.stores);
    const known = await sampleCoverage(corpus.stores, WELL_KNOWN_NAMES);

    expect(established.listed).toBeGreaterThan(3_800);
    expect(established.absent.length).toBeLessThan(established.listed / 100);
    expect(known.absent).toEqual(expect.arrayContaining(['Harry Potter', 'Peppa Pig', 'Minecraft']));
  });
});
