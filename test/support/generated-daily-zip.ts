/** A generated daily XML file (builders/synthetic-uspto) zipped as the USPTO portal serves it, held in memory. */
import { Writable } from 'node:stream';
import { writeSyntheticDailyXml } from '../../builders/synthetic-uspto/daily-xml';
import { tinyZip } from '../unit/marks/batch-test-inputs';

export async function generatedDailyZip(records: number, seed: number, firstSerial: number): Promise<Buffer> {
  const chunks: Buffer[] = [];
  const sink = new Writable({
    write(chunk, _encoding, done) {
      chunks.push(Buffer.from(chunk));
      done();
    },
  });
  await writeSyntheticDailyXml(sink, { records, seed, firstSerial });
  return tinyZip([{ name: 'data.xml', data: Buffer.concat(chunks), deflate: true }]);
}
