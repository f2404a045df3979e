import type { Messages } from '../errors';

export type Language = 'en' | 'zh';

/** `Accept-Language: zh`, `zh-CN`, `zh-Hans;q=0.9, en;q=0.8` ... pick Chinese when it is preferred over English. */
export function languageOf(acceptLanguage: string | undefined): Language {
  if (!acceptLanguage) return 'en';
  let best: { lang: Language; q: number } = { lang: 'en', q: -1 };
  for (const part of acceptLanguage.split(',')) {
    const [tag = '', ...params] = part.trim().toLowerCase().split(';');
    const qParam = params.map((p) => p.trim()).find((p) => p.startsWith('q='));
    const q = qParam ? Number(qParam.slice(2)) : 1;
    if (!Number.isFinite(q) || q <= 0) continue; // q=0 means "not acceptable" (RFC 9110 12.4.2)
    const lang: Language | undefined = tag.startsWith('zh')
      ? 'zh'
      : tag.startsWith('en') || tag === '*'
        ? 'en'
        : undefined;
    if (lang && q > best.q) best = { lang, q };
  }
  return best.lang;
}

export function pick(messages: Messages, language: Language): string {
  return messages[language];
}
