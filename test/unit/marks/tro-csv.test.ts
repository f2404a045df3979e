import { createReadStream } from 'node:fs';
import path from 'node:path';
import { BatchFormatError, BatchSyntaxError } from '../../../shared/marks/batch-errors';
import { readTroList, troBrandKey } from '../../../shared/marks/tro-csv';
import { FIXTURES_DIR, inChunks } from './batch-test-inputs';

const HEADER = 'brand,plaintiff,case_no,court,filed,source,checked_against_docket';

function csv(...rows: string[]): AsyncGenerator<Buffer> {
  return inChunks(Buffer.from([HEADER, ...rows].join('\n'), 'utf8'), 17);
}

describe('readTroList on the real sample list', () => {
  it('gives one entry per brand, with the values of its row', async () => {
    const { entries, rejects } = await readTroList(
      createReadStream(path.join(FIXTURES_DIR, 'tro/tro_brands_sample.csv')),
    );

    expect(rejects).toEqual([]);
    expect(entries).toHaveLength(19);
    expect(entries.map((entry) => entry.brand).slice(0, 3)).toEqual(['Daimler Truck', 'Harley-Davidson', 'Metallica']);
    expect(entries.find((entry) => entry.brand === 'Tory Burch')).toEqual({
      brand: 'Tory Burch',
      plaintiffs: ['River Light V'],
      caseCount: 1,
      caseNumbers: ['1:24-cv-03089'],
      courts: ['N.D. Ill.'],
      lastFilingDate: '2024-04-17',
      sources: ['row in a public GitHub data file (rm-cortez/veryStupid lbr/src/dt.js)'],
      checkedAgainstDocket: false,
    });
    expect(entries.find((entry) => entry.brand === 'GoPro')?.courts).toEqual(['S.D. Fla.']);
    expect(entries.find((entry) => entry.brand === 'Dior')?.plaintiffs).toEqual(['Christian Dior']);
  });

  it('keeps brands of one plaintiff apart (Ray-Ban and Oakley, both Luxottica)', async () => {
    const { entries } = await readTroList(createReadStream(path.join(FIXTURES_DIR, 'tro/tro_brands_sample.csv')));
    const luxottica = entries.filter((entry) => entry.plaintiffs.includes('Luxottica')).map((entry) => entry.brand);
    expect(luxottica).toEqual(['Ray-Ban', 'Oakley']);
  });

  it('counts a brand named only by reports, without case number, as at least one case', async () => {
    const { entries } = await readTroList(createReadStream(path.join(FIXTURES_DIR, 'tro/tro_brands_sample.csv')));
    const nike = entries.find((entry) => entry.brand === 'Nike');
    expect(nike).toMatchObject({ caseCount: 1, caseNumbers: [] });
    expect(nike && 'lastFilingDate' in nike).toBe(false);
  });
});

describe('readTroList aggregation and rejects', () => {
  it('aggregates rows of one brand whatever their case and spacing', async () => {
    const { entries } = await readTroList(
      csv(
        'Nike,Nike Inc,1:24-cv-00001,N.D. Ill.,2024-01-10,docket A,yes',
        'NIKE ,Nike Inc,1:24-cv-00002,N.D. Ill.,2024-06-01,docket B,yes',
        'nike,Nike Innovate C.V.,1:24-cv-00001,S.D. Fla.,2023-12-01,docket A,yes',
        'nike,Nike Inc,,N.D. Ill.,,news report,no',
      ),
    );

    expect(entries).toEqual([
      {
        brand: 'Nike',
        plaintiffs: ['Nike Inc', 'Nike Innovate C.V.'],
        caseCount: 2,
        caseNumbers: ['1:24-cv-00001', '1:24-cv-00002'],
        courts: ['N.D. Ill.', 'S.D. Fla.'],
        lastFilingDate: '2024-06-01',
        sources: ['docket A', 'docket B', 'news report'],
        checkedAgainstDocket: false,
      },
    ]);
  });

  it('refuses bad rows with their line and keeps the others', async () => {
    const { entries, rejects } = await readTroList(
      csv(
        ',Someone,,,,,no',
        'Chanel,Chanel,,N.D. Ill.,2024-02-31,report,no',
        'Omega,Omega',
        'Burberry,Burberry,,N.D. Ill.,,report,maybe',
        '"Gucci, Inc.",Gucci,,N.D. Ill.,,report,no',
      ),
    );

    expect(rejects).toEqual([
      { line: 2, error: 'brand: is empty' },
      { line: 3, error: 'filed: must be a real calendar date written YYYY-MM-DD', brand: 'Chanel' },
      { line: 4, error: 'row has 2 fields, the header has 7' },
      { line: 5, error: 'checked_against_docket: must be yes or no', brand: 'Burberry' },
    ]);
    expect(entries.map((entry) => entry.brand)).toEqual(['Gucci, Inc.']);
  });

  it('refuses a file without a brand column, an empty file and broken quoting as a whole', async () => {
    await expect(readTroList(inChunks(Buffer.from('name,plaintiff\nNike,Nike\n')))).rejects.toThrow(BatchFormatError);
    await expect(readTroList(inChunks(Buffer.from('')))).rejects.toThrow(BatchFormatError);
    await expect(readTroList(csv('"Nike,Nike,,,,,no', 'Adidas,Adidas,,,,,no'))).rejects.toThrow(BatchSyntaxError);
  });

  it('matches brand keys across width and case variants', () => {
    expect(troBrandKey('ＮＩＫＥ  Air')).toBe(troBrandKey('nike air'));
  });
});
