import { loadCorpus } from './builders/screening/screening-dataset';
import { FEATURE_NAMES } from './shared/screening/brand-use-features';
(async () => {
  const corpus = await loadCorpus('registered');
  const titles = process.argv.slice(2);
  const ex = await corpus.screener.examples(titles.map((title) => ({ title })));
  const m = corpus.screener.model as any;
  ex.forEach((list, i) => {
    console.log('==', titles[i]);
    for (const e of list) {
      const p = m.probability(e.features);
      const contrib = FEATURE_NAMES.map((n, j) => [n, m.weights[j] * e.features[j]] as [string, number]).filter(([, v]) => Math.abs(v) > 0.3).sort((a, b) => Math.abs(b[1]) - Math.abs(a[1])).map(([n, v]) => `${n}:${v.toFixed(2)}`).join(' ');
      console.log(`  ${e.match.mark} [${e.candidate.start},${e.candidate.end}) ${e.match.kind} p=${p.toFixed(3)} | ${contrib}`);
    }
  });
})();
