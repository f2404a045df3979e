import { readFileSync } from 'node:fs';
import path from 'node:path';
import { BatchFormatError, BatchSyntaxError } from '../../../shared/marks/batch-errors';
import { parseTsdrStatusXml } from '../../../shared/marks/tsdr-status-xml';
import { TSDR_SAMPLES_DIR } from './batch-test-inputs';

const OPTIONS = { batchDate: '2024-05-01', source: 'tsdr-test' };

function sample(fileName: string): Buffer {
  return readFileSync(path.join(TSDR_SAMPLES_DIR, fileName));
}

/** Values read from the XML files: ApplicationNumber, RegistrationNumber, MarkVerbalElementText, ClassNumber ... */
describe('parseTsdrStatusXml on the real TSDR samples', () => {
  it('reads the ST.66 document of PYTHON (sn76044902) field by field', async () => {
    const result = await parseTsdrStatusXml(sample('sn76044902.xml'), OPTIONS);

    expect(result).toEqual({
      ok: true,
      form: 'ST.66',
      record: {
        serial: '76044902',
        registrationNumber: '2824281',
        markText: 'PYTHON',
        niceClasses: ['09', '42'],
        statusCode: '702',
        statusCategory: 'registered',
        isLive: true,
        // Applicants with party types 30, 20 and 10: the original registrant (30) is the current owner.
        owner: 'PYTHON SOFTWARE FOUNDATION',
        filingDate: '2000-05-09',
        drawingKind: 'word',
        goodsExcerpt:
          'Computer programs and downloadable computer programs that implement an object-oriented computer ' +
          'programming language; Providing information relating to an object-oriented computer programming ' +
          'language and its development environment',
        market: 'US',
        source: 'tsdr-test',
        batchDate: '2024-05-01',
      },
    });
  });

  it.each(['rn2178784-ST-961_D3.xml', 'rn2178784-ST-962.2.1.xml'])(
    'reads the ST.96 document %s of JAVA field by field',
    async (fileName) => {
      const result = await parseTsdrStatusXml(sample(fileName), OPTIONS);

      if (!result.ok) throw new Error(result.error);
      expect(result.form).toBe('ST.96');
      const { goodsExcerpt, ...fields } = result.record;
      expect(fields).toEqual({
        serial: '74631225',
        registrationNumber: '2178784',
        markText: 'JAVA',
        niceClasses: ['09'],
        statusCode: '800',
        statusCategory: 'registered',
        isLive: true,
        // Applicant sequence numbers 31 (owner after registration), 30, 20, 10: Oracle took over from Sun.
        owner: 'Oracle America, Inc.',
        filingDate: '1995-02-07',
        drawingKind: 'word',
        market: 'US',
        source: 'tsdr-test',
        batchDate: '2024-05-01',
      });
      expect(goodsExcerpt).toMatch(/^computer programs for use in developing and executing other computer programs/);
      expect(goodsExcerpt?.length).toBeLessThanOrEqual(300);
    },
  );

  it('reads both ST.96 releases to the same record', async () => {
    const d3 = await parseTsdrStatusXml(sample('rn2178784-ST-961_D3.xml'), OPTIONS);
    const v221 = await parseTsdrStatusXml(sample('rn2178784-ST-962.2.1.xml'), OPTIONS);
    expect(d3).toEqual(v221);
  });

  it('accepts the document as a string as well as bytes', async () => {
    const fromText = await parseTsdrStatusXml(sample('sn76044902.xml').toString('utf8'), OPTIONS);
    const fromBytes = await parseTsdrStatusXml(sample('sn76044902.xml'), OPTIONS);
    expect(fromText).toEqual(fromBytes);
  });
});

describe('parseTsdrStatusXml on bad documents', () => {
  it('throws a syntax error with the line on a truncated document', async () => {
    const truncated = sample('rn2178784-ST-962.2.1.xml').subarray(0, 5000);
    await expect(parseTsdrStatusXml(truncated, OPTIONS)).rejects.toThrow(BatchSyntaxError);
    await expect(parseTsdrStatusXml(truncated, OPTIONS)).rejects.toThrow(/^line \d+, column \d+: unclosed tag/);
  });

  it('refuses XML that is neither ST.66 nor ST.96', async () => {
    await expect(parseTsdrStatusXml('<trademark-applications-daily/>', OPTIONS)).rejects.toThrow(BatchFormatError);
  });

  it('reports a document whose status code is not in the USPTO table as a rejected record', async () => {
    const altered = sample('sn76044902.xml')
      .toString('utf8')
      .replace(
        '<MarkCurrentStatusCode>702</MarkCurrentStatusCode>',
        '<MarkCurrentStatusCode>123</MarkCurrentStatusCode>',
      );

    const result = await parseTsdrStatusXml(altered, OPTIONS);

    expect(result).toEqual({
      ok: false,
      form: 'ST.66',
      serial: '76044902',
      error: 'status code "123" is not in the USPTO status table',
    });
  });
});
