import { readFileSync } from 'node:fs';
import { parseUsptoDailyXml } from './shared/marks/uspto-daily-xml';
const seed = readFileSync('test/fixtures/uspto/daily-xml-sample/seed.xml', 'utf8');
const start = seed.indexOf('<case-file>'); const end = seed.lastIndexOf('</case-file>') + '</case-file>'.length;
const head = seed.slice(0, start), body = seed.slice(start, end), tail = seed.slice(end);
const N = 20000; // x11 records
async function* gen() { yield Buffer.from(head); for (let i = 0; i < N; i++) yield Buffer.from(body.replace(/<serial-number>(\d+)/g, (_m, s) => `<serial-number>${String((Number(s) + i * 13) % 100000000).padStart(8, '0')}`)); yield Buffer.from(tail); }
(async () => {
  const t = Date.now(); let n = 0, dups = 0, peak = 0;
  for await (const r of parseUsptoDailyXml(gen(), { batchDate: '2020-01-01', source: 'x' })) { n++; if (r.ok && r.duplicate) dups++; if (n % 20000 === 0) peak = Math.max(peak, process.memoryUsage().rss); }
  console.log({ n, dups, secs: (Date.now() - t) / 1000, perSec: Math.round(n / ((Date.now() - t) / 1000)), peakRssMB: Math.round(peak / 1e6) });
})();
