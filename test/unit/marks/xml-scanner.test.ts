import { readFileSync } from 'node:fs';
import path from 'node:path';
import { PassThrough } from 'node:stream';
import fc from 'fast-check';
import { SaxesParser } from 'saxes';
import { XmlScanError, XmlScanner } from '../../../shared/marks/xml-scanner';
import { writeSyntheticDailyXml } from '../../../builders/synthetic-uspto/daily-xml';

/**
 * The scanner is checked against saxes, a conforming XML parser: on any document saxes accepts, both must report
 * the same elements and the same text (whitespace-only text aside, which neither parser's users read), however the
 * input is cut into chunks.
 */
type Event = string;

function merged(events: Event[]): Event[] {
  const out: Event[] = [];
  for (const event of events) {
    const last = out[out.length - 1];
    if (event.startsWith('t:') && last?.startsWith('t:')) out[out.length - 1] = last + event.slice(2);
    else out.push(event);
  }
  return out.filter((event) => !(event.startsWith('t:') && event.slice(2).trim() === ''));
}

function chunksOf(text: string, size: number): string[] {
  const chunks: string[] = [];
  for (let i = 0; i < text.length; i += size) chunks.push(text.slice(i, i + size));
  return chunks.length ? chunks : [''];
}

function scanned(chunks: string[]): Event[] {
  const events: Event[] = [];
  const scanner = new XmlScanner({
    openTag: (name) => events.push(`o:${name}`),
    text: (text) => events.push(`t:${text}`),
    closeTag: (name) => events.push(`c:${name}`),
  });
  for (const chunk of chunks) scanner.write(chunk);
  scanner.close();
  return merged(events);
}

function bySaxes(text: string): Event[] {
  const events: Event[] = [];
  const parser = new SaxesParser();
  parser.on('opentag', (tag) => events.push(`o:${tag.name}`));
  parser.on('text', (t) => events.push(`t:${t}`));
  parser.on('cdata', (t) => events.push(`t:${t}`));
  parser.on('closetag', (tag) => events.push(`c:${tag.name}`));
  parser.write(text).close();
  return merged(events);
}

function scanError(chunks: string[]): XmlScanError {
  try {
    scanned(chunks);
  } catch (error) {
    if (error instanceof XmlScanError) return error;
    throw error;
  }
  throw new Error('no error');
}

const FIXTURES = path.join(__dirname, '../../fixtures/uspto');
const DAILY = readFileSync(path.join(FIXTURES, 'daily-xml-sample/seed.xml'), 'utf8');
const TSDR = ['rn2178784-ST-961_D3.xml', 'rn2178784-ST-962.2.1.xml', 'sn76044902.xml'].map((f) =>
  readFileSync(path.join(FIXTURES, 'tsdr-samples', f), 'utf8'),
);

async function syntheticDaily(records: number): Promise<string> {
  const out = new PassThrough();
  const parts: Buffer[] = [];
  out.on('data', (chunk: Buffer) => parts.push(chunk));
  await writeSyntheticDailyXml(out, { records, seed: 3 });
  out.end();
  return Buffer.concat(parts).toString('utf8');
}

describe('XmlScanner against saxes', () => {
  it.each([1, 7, 64, 1000, 1 << 20])('reads the real daily sample (DTD, entities) alike in chunks of %i', (size) => {
    expect(scanned(chunksOf(DAILY, size))).toEqual(bySaxes(DAILY));
  });

  it.each(TSDR.map((text, i) => [i, text] as const))(
    'reads TSDR sample %i (attributes, namespaces) alike',
    (_i, text) => {
      expect(scanned(chunksOf(text, 13))).toEqual(bySaxes(text));
    },
  );

  it('reads a generated daily file alike', async () => {
    const text = await syntheticDaily(40);
    expect(scanned(chunksOf(text, 4096))).toEqual(bySaxes(text));
  });

  it('reads the corners of the syntax alike', () => {
    const doc = [
      '<?xml version="1.0" encoding="utf-8"?>',
      '<!DOCTYPE root [ <!ELEMENT root (a)*> <!ATTLIST a x CDATA "]>"> <!-- a ]> comment --> ]>',
      '<!-- before > the root -->',
      '<root>',
      '<a x="1 > 0" y=\'"\'>A &amp; B &lt;&gt; &quot;&apos; &#65;&#x42; &#x1F600;</a>',
      '<b/><c attr="v"/>',
      '<d><![CDATA[<not a tag> & not a reference]]></d>',
      '<e>line\r\nbreak\rhere</e>',
      '<?pi inside?><!-- comment --><f>after</f>',
      '</root>',
      '<!-- after -->',
    ].join('\n');
    const expected = bySaxes(doc);
    expect(expected).toContain('t:A & B <> "\' AB 😀');
    for (const size of [1, 2, 3, 5, 11, doc.length]) expect(scanned(chunksOf(doc, size))).toEqual(expected);
  });

  it('agrees on every document saxes accepts, cut anywhere (property)', () => {
    const name = fc.constantFrom('a', 'b', 'case-file', 'x:y', '_z');
    const text = fc.constantFrom(
      'plain',
      ' spaced out ',
      'A &amp; B',
      '&lt;tag&gt;',
      '&#233;t&#xE9;',
      'é ü 中文',
      '\n  ',
    );
    const tree: fc.Arbitrary<string> = fc.letrec((tie) => ({
      node: fc.oneof(
        { depthSize: 'small' },
        text,
        fc
          .tuple(name, fc.array(tie('node'), { maxLength: 4 }))
          .map(([n, children]) => `<${n}>${(children as string[]).join('')}</${n}>`),
        name.map((n) => `<${n}/>`),
        fc.constantFrom('<![CDATA[ <raw> & ]]>', '<!-- note -->', '<?pi x?>'),
      ),
    })).node;
    fc.assert(
      fc.property(fc.array(tree, { maxLength: 5 }), fc.integer({ min: 1, max: 40 }), (children, size) => {
        const doc = `<?xml version="1.0"?>\n<root>${children.join('')}</root>\n`;
        expect(scanned(chunksOf(doc, size))).toEqual(bySaxes(doc));
      }),
      { numRuns: 300 },
    );
  });

  it('agrees with saxes on damaged copies of the real sample whenever saxes accepts them', () => {
    const start = DAILY.indexOf('<case-file>');
    fc.assert(
      fc.property(
        fc.integer({ min: start, max: DAILY.length - 1 }),
        fc.constantFrom('', '<', '>', '&', '/', '"', 'x'),
        (at, insert) => {
          const doc = DAILY.slice(0, at) + insert + DAILY.slice(at + 1);
          let expected: Event[] | undefined;
          try {
            expected = bySaxes(doc);
          } catch {
            return;
          }
          expect(scanned(chunksOf(doc, 997))).toEqual(expected);
        },
      ),
      { numRuns: 200 },
    );
  });
});

describe('XmlScanner skipping an element', () => {
  // Inside the skipped element: a longer name that starts with its own, a reference, a comment.
  const doc = [
    '<r>',
    '<keep>a</keep>',
    '<skip x="1">',
    '  <skip-more>no</skip-more><inner>no &amp; no</inner>',
    '  <!-- note -->',
    '</skip >',
    '<keep>b</keep>',
    '<late/>',
    '</r>',
  ].join('\n');

  function skipping(chunks: string[]): { events: Event[]; lateLine: number } {
    const events: Event[] = [];
    let lateLine = 0;
    const scanner: XmlScanner = new XmlScanner({
      openTag: (name) => {
        events.push(`o:${name}`);
        if (name === 'skip') scanner.skipElement();
        if (name === 'late') lateLine = scanner.line;
      },
      text: (text) => events.push(`t:${text}`),
      closeTag: (name) => events.push(`c:${name}`),
    });
    for (const chunk of chunks) scanner.write(chunk);
    scanner.close();
    return { events: merged(events), lateLine };
  }

  it.each([1, 2, 3, 5, 8, 1000])(
    'reports the element opening and closing and nothing inside it, in chunks of %i',
    (size) => {
      const { events, lateLine } = skipping(chunksOf(doc, size));
      expect(events).toEqual([
        'o:r',
        'o:keep',
        't:a',
        'c:keep',
        'o:skip',
        'c:skip',
        'o:keep',
        't:b',
        'c:keep',
        'o:late',
        'c:late',
        'c:r',
      ]);
      expect(lateLine).toBe(8);
    },
  );

  it('still finds an element left open inside the end', () => {
    const scanner: XmlScanner = new XmlScanner({
      openTag: (name) => name === 'skip' && scanner.skipElement(),
      text: () => undefined,
      closeTag: () => undefined,
    });
    scanner.write('<r><skip><a></a>');
    expect(() => scanner.close()).toThrow(/unclosed tag: skip/);
  });
});

describe('XmlScanner on broken input', () => {
  it.each([
    ['a mismatched closing tag', '<r>\n<a>\n</b>\n</r>', 'unexpected close tag', 3],
    ['an unclosed element at the end', '<r>\n<a>text', 'unclosed tag: a', 2],
    ['text before the root', 'hello <r/>', 'text data outside of root node', 1],
    ['a second root', '<r/>\n<s/>', 'text data outside of root node', 2],
    ['text after the root', '<r/>\ntrailing', 'text data outside of root node', 2],
    ['an unescaped ampersand', '<r>A & B</r>', 'ampersand', 1],
    ['an undefined entity', '<r>&nbsp;</r>', 'undefined entity &nbsp;', 1],
    ['a character reference to nothing', '<r>&#0;</r>', 'invalid character reference', 1],
    ['a < in text', '<r>1 < 2</r>', 'tag with no name', 1],
    ['a < in an attribute value', '<r a="<"/>', 'a < inside an attribute value', 1],
    ['an unterminated comment', '<r><!-- never ends', 'unexpected end of input inside markup', 1],
    ['an empty document', '', 'document must contain a root element', 1],
    ['only a declaration', '<?xml version="1.0"?>\n', 'document must contain a root element', 2],
    ['an unknown declaration', '<r><!ELEMENT r ANY></r>', 'unknown markup declaration', 1],
  ])('throws on %s, with the reason and the line', (_label, doc, reason, line) => {
    for (const size of [1, 4, 1000]) {
      const error = scanError(chunksOf(doc, size));
      expect(error.reason).toContain(reason);
      expect(error.line).toBe(line);
    }
  });

  it('gives the column of the error on its line', () => {
    const error = scanError(['<r>\n  <a></b></r>']);
    expect([error.line, error.column]).toEqual([2, 6]);
  });

  it('does not wait without end for markup that never closes', () => {
    const scanner = new XmlScanner({ openTag: () => undefined, text: () => undefined, closeTag: () => undefined });
    scanner.write('<r><!-- ');
    const chunk = 'x'.repeat(1 << 20);
    expect(() => {
      for (let i = 0; i < 8; i++) scanner.write(chunk);
    }).toThrow(/markup longer than 4 MiB/);
  });
});
