import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { gzipSync } from 'node:zlib';
import { BatchFileError, openBatchStream } from '../../../shared/marks/open-batch-file';
import { parseUsptoDailyXml } from '../../../shared/marks/uspto-daily-xml';
import { BATCH, collect, collectUntilError, DAILY_SAMPLE_PATH, tinyZip } from './batch-test-inputs';

const sampleBytes = readFileSync(DAILY_SAMPLE_PATH);
let workDir: string;

beforeAll(() => {
  workDir = mkdtempSync(path.join(tmpdir(), 'open-batch-file-'));
});

afterAll(() => {
  rmSync(workDir, { recursive: true, force: true });
});

function writeInWorkDir(fileName: string, bytes: Buffer): string {
  const filePath = path.join(workDir, fileName);
  writeFileSync(filePath, bytes);
  return filePath;
}

async function serialsOf(filePath: string): Promise<string[]> {
  const results = await collect(parseUsptoDailyXml(await openBatchStream(filePath), BATCH));
  return results.map((result) => (result.ok ? result.record.serial : `rejected: ${result.error}`));
}

const SAMPLE_SERIALS = [
  '87310367',
  '87703889',
  '87703896',
  '87796079',
  '71112081',
  '71522974',
  '72029003',
  '72045204',
  '72243407',
  '72244388',
  '72244547',
];

describe('openBatchStream', () => {
  it('reads a plain .xml file', async () => {
    expect(await serialsOf(DAILY_SAMPLE_PATH)).toEqual(SAMPLE_SERIALS);
  });

  it('inflates a .xml.gz file while reading', async () => {
    const gzPath = writeInWorkDir('apc180218.xml.gz', gzipSync(sampleBytes));
    expect(await serialsOf(gzPath)).toEqual(SAMPLE_SERIALS);
  });

  it('streams the first .xml entry of a .zip, skipping other entries and macOS resource forks', async () => {
    const zip = tinyZip([
      { name: 'README.txt', data: Buffer.from('not the batch') },
      { name: '__MACOSX/._apc180218.xml', data: Buffer.from('resource fork') },
      { name: 'apc180218.xml', data: sampleBytes, deflate: true },
      { name: 'second.xml', data: Buffer.from('<never-read/>') },
    ]);
    const zipPath = writeInWorkDir('apc180218.zip', zip);

    expect(await serialsOf(zipPath)).toEqual(SAMPLE_SERIALS);
  });

  it('surfaces a zip entry that inflates to more than its declared size as an error of the parse', async () => {
    const zip = tinyZip([{ name: 'daily.xml', data: sampleBytes, deflate: true, claimedSize: 1000 }]);
    const zipPath = writeInWorkDir('bad-size.zip', zip);

    const { error } = await collectUntilError(parseUsptoDailyXml(await openBatchStream(zipPath), BATCH));

    expect(error).toBeInstanceOf(BatchFileError);
    expect((error as Error).message).toMatch(/bad-size\.zip \(daily\.xml\): cannot be read \(too many bytes/);
  });

  it('reads a stored (uncompressed) zip entry', async () => {
    const zipPath = writeInWorkDir('stored.zip', tinyZip([{ name: 'daily.XML', data: sampleBytes }]));
    expect(await serialsOf(zipPath)).toEqual(SAMPLE_SERIALS);
  });

  it('refuses a zip without an .xml entry', async () => {
    const zipPath = writeInWorkDir('no-xml.zip', tinyZip([{ name: 'notes.txt', data: Buffer.from('x') }]));
    await expect(openBatchStream(zipPath)).rejects.toThrow(/holds no \.xml file/);
  });

  it('refuses a file that is not a zip despite its name', async () => {
    const zipPath = writeInWorkDir('fake.zip', Buffer.from('this is not an archive'));
    await expect(openBatchStream(zipPath)).rejects.toThrow(BatchFileError);
  });

  it('refuses a missing file and an unknown extension when opening, not later', async () => {
    await expect(openBatchStream(path.join(workDir, 'missing.xml'))).rejects.toThrow(BatchFileError);
    await expect(openBatchStream(path.join(workDir, 'batch.pdf'))).rejects.toThrow(/unsupported batch file type/);
  });

  it('surfaces a corrupt .gz as an error of the parse, never a hang', async () => {
    const gz = gzipSync(sampleBytes);
    const corrupt = Buffer.concat([gz.subarray(0, 2000), Buffer.alloc(2000, 0x55), gz.subarray(4000)]);
    const gzPath = writeInWorkDir('corrupt.xml.gz', corrupt);

    const { error } = await collectUntilError(parseUsptoDailyXml(await openBatchStream(gzPath), BATCH));

    expect(error).toBeInstanceOf(BatchFileError);
    expect((error as Error).message).toContain('corrupt.xml.gz: cannot be read');
  });
});
