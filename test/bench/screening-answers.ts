/**
 * Records the screening answers (risk, tro_hit, top_conflict and the detailed conflicts) of the real listing titles
 * against a register-scale corpus loaded in memory, and the engine's warm rate on them, so that a change meant only
 * to make screening faster can be shown to answer exactly as before:
 *
 *   npx tsx test/bench/screening-answers.ts --register FILE --out answers.json [--compare before.json] [--rate]
 *     [--refresh-ms N] [--profile first-pass.cpuprofile]
 *
 * It also prints what the first pass read of the register per title (every key a fresh instance looks up, so the
 * figure to compare across register sizes): keys found, marks they hold, and those marks' summaries in bytes.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { Session } from 'node:inspector/promises';
import { loadCorpus } from '../../builders/screening/screening-dataset';
import { realTitles } from './bench-support';

const argument = (name: string) => {
  const at = process.argv.indexOf(name);
  return at >= 0 ? process.argv[at + 1] : undefined;
};

async function main() {
  const register = argument('--register');
  const out = argument('--out');
  const compare = argument('--compare');
  const t0 = Date.now();
  // `--refresh-ms 1`: every key read again for each batch, as a warm instance does once its entries are stale.
  const refreshMs = argument('--refresh-ms');
  const read = { keys: 0, marks: 0, bytes: 0, counting: false };
  /** By kind of key (e:, d:, p:): keys found and the marks they hold. */
  const byKind = new Map<string, { keys: number; marks: number }>();
  const corpus = await loadCorpus('shipped', refreshMs ? { refreshMs: Number(refreshMs) } : {}, {
    register: register ?? null,
    onFound: (marks, key) => {
      if (!read.counting) return;
      const list = [...marks];
      read.keys++;
      read.marks += list.length;
      read.bytes += JSON.stringify(list).length;
      const kind = byKind.get(key.slice(0, 2)) ?? { keys: 0, marks: 0 };
      kind.keys++;
      kind.marks += list.length;
      byKind.set(key.slice(0, 2), kind);
    },
  });
  console.error(`loaded ${corpus.marks} marks in ${((Date.now() - t0) / 1000).toFixed(0)} s`);
  const titles = realTitles();
  const answers: unknown[] = [];
  // `--profile FILE`: a CPU profile of the first pass alone (open it in Chrome's DevTools, Performance tab).
  const profile = argument('--profile');
  const session = profile ? new Session() : undefined;
  if (session) {
    session.connect();
    await session.post('Profiler.enable');
    await session.post('Profiler.start');
  }
  const t1 = process.cpuUsage();
  read.counting = true;
  for (let i = 0; i < titles.length; i += 1000) {
    const results = await corpus.screener.screen(
      titles.slice(i, i + 1000).map((title) => ({ title })),
      { detail: true },
    );
    answers.push(...results);
  }
  const cold = process.cpuUsage(t1);
  read.counting = false;
  if (session && profile) {
    const { profile: taken } = await session.post('Profiler.stop');
    writeFileSync(profile, JSON.stringify(taken));
    session.disconnect();
  }
  const perTitle = (x: number) => (x / titles.length).toFixed(2);
  console.error(
    `register read by the first pass, per title: ${perTitle(read.keys)} keys found, ${perTitle(read.marks)} marks, ${perTitle(read.bytes)} bytes of mark summaries (JSON)`,
  );
  console.error(
    `  by kind of key: ${[...byKind]
      .sort()
      .map(([kind, n]) => `${kind} ${perTitle(n.keys)} keys, ${perTitle(n.marks)} marks`)
      .join('; ')}`,
  );
  console.error(`${titles.length} titles, first pass ${((cold.user + cold.system) / 1e6).toFixed(1)} CPU s`);
  if (out) writeFileSync(out, `${JSON.stringify(answers, null, 0).replace(/\},\{"name"/g, '},\n{"name"')}\n`);
  if (compare) {
    const before = JSON.parse(readFileSync(compare, 'utf8')) as unknown[];
    let differ = 0;
    for (let i = 0; i < Math.max(before.length, answers.length); i++) {
      if (JSON.stringify(before[i]) === JSON.stringify(answers[i])) continue;
      if (differ++ < 5)
        console.error(`differs #${i}:\n  ${JSON.stringify(before[i])}\n  ${JSON.stringify(answers[i])}`);
    }
    console.error(`${answers.length} answers, ${differ} differ from ${compare}`);
    if (differ) process.exitCode = 1;
  }
  if (process.argv.includes('--rate')) {
    const rates: number[] = [];
    for (let r = 0; r < 5; r++) {
      const c0 = process.cpuUsage();
      for (let i = 0; i < titles.length; i += 1000)
        await corpus.screener.screen(titles.slice(i, i + 1000).map((title) => ({ title })));
      const used = process.cpuUsage(c0);
      rates.push(titles.length / ((used.user + used.system) / 1e6));
    }
    rates.sort((a, b) => a - b);
    console.error(`engine warm (tsx, in-memory stores): ${rates.map((x) => x.toFixed(0)).join(', ')} titles per CPU s`);
  }
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
