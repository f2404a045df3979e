/**
 * A streaming XML scanner for large, simple documents: element names, character data and the nesting, nothing
 * else. It reads the USPTO daily files (gigabytes of <case-file> elements whose few useful fields are text), where
 * a general parser that validates every name character and builds every attribute costs more CPU than the rest of
 * ingest together.
 *
 * What it checks: tags nest and close in order, there is one root element and no text or second element outside
 * it, entity references are the five predefined ones or character references, and every construct is closed by the
 * end of the input. What it leaves out: attribute values (the tag's end is found, quotes respected, but values are
 * not decoded or handed on), DTD declarations (the internal subset is skipped), namespaces, and the check that every
 * character is one XML allows.
 *
 * A handler may skip the element it is told has opened (`skipElement()` in openTag): the scanner then looks only
 * for the element's own closing tag, so the markup inside it is neither reported nor checked. A reader that needs a
 * few fields of a large record saves most of its work this way.
 *
 * Input: text in chunks of any size (a construct may span chunks). Output: calls to the handlers in document order;
 * `line` and `column` give the position of the construct being reported while a handler runs. Errors are thrown as
 * XmlScanError with the line and column where reading stopped.
 */

export interface XmlScanHandlers {
  openTag(name: string): void;
  /** Character data with references decoded; may come in several pieces between two tags. */
  text(text: string): void;
  closeTag(name: string): void;
}

export class XmlScanError extends Error {
  constructor(
    readonly reason: string,
    readonly line: number,
    readonly column: number,
  ) {
    super(`${line}:${column}: ${reason}`);
    this.name = 'XmlScanError';
  }
}

const PREDEFINED_ENTITIES: Readonly<Record<string, string>> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'" };
/** The longest reference worth waiting for across a chunk boundary (&#x10FFFF; is 10 characters). */
const MAX_REFERENCE_LENGTH = 12;
/** A comment, tag or DOCTYPE still open after this much text is not waited for. */
const MAX_PENDING_MARKUP = 4 * 2 ** 20;
const WHITESPACE_ONLY = /^[ \t\r\n]*$/;
const REFERENCE = /&(#x[0-9A-Fa-f]+|#[0-9]+|[A-Za-z_][\w.-]*);/g;

export class XmlScanner {
  private buffer = '';
  private position = 0;
  private readonly open: string[] = [];
  private rootClosed = false;
  private rootSeen = false;
  /** Lines counted up to `countedTo` in the buffer; `lineStart` is where the current line began (may be < 0). */
  private lineNumber = 1;
  private countedTo = 0;
  private lineStart = 0;
  /** Where the construct being reported starts in the buffer. */
  private mark = 0;
  private skipRequested = false;
  /** `</name` of the element being skipped. */
  private skipTo: string | undefined;

  constructor(private readonly handlers: XmlScanHandlers) {}

  /** The line of the construct being reported (of the error, once one is thrown). */
  get line(): number {
    this.countTo(this.mark);
    return this.lineNumber;
  }

  get column(): number {
    this.countTo(this.mark);
    return this.mark - this.lineStart + 1;
  }

  /** From openTag: pass over the element's content to its closing tag (which is still reported). */
  skipElement(): void {
    this.skipRequested = true;
  }

  /** Whether the root element has started. */
  get started(): boolean {
    return this.rootSeen;
  }

  write(chunk: string): void {
    // The lines of what is dropped are counted before it goes.
    if (this.position !== 0) this.countTo(this.position);
    this.buffer = this.position === 0 ? this.buffer + chunk : this.buffer.slice(this.position) + chunk;
    if (this.position !== 0) {
      this.countedTo -= this.position;
      this.lineStart -= this.position;
      this.mark -= this.position;
      this.position = 0;
    }
    this.scan(false);
    if (this.buffer.length - this.position > MAX_PENDING_MARKUP) {
      this.mark = this.position;
      this.fail(`markup longer than ${MAX_PENDING_MARKUP / 2 ** 20} MiB that does not end`);
    }
  }

  close(): void {
    this.scan(true);
    this.mark = this.buffer.length;
    if (this.position < this.buffer.length) this.fail('unexpected end of input inside markup');
    const unclosed = this.open[this.open.length - 1];
    if (unclosed !== undefined) this.fail(`unclosed tag: ${unclosed}`);
    if (!this.rootSeen) this.fail('document must contain a root element');
  }

  private countTo(to: number): void {
    const buffer = this.buffer;
    for (let i = buffer.indexOf('\n', this.countedTo); i !== -1 && i < to; i = buffer.indexOf('\n', i + 1)) {
      this.lineNumber++;
      this.lineStart = i + 1;
    }
    if (to > this.countedTo) this.countedTo = to;
  }

  private fail(reason: string): never {
    throw new XmlScanError(reason, this.line, this.column);
  }

  /** Scans what the buffer holds; stops before a construct that is not complete yet unless this is the end. */
  private scan(atEnd: boolean): void {
    const buffer = this.buffer;
    const length = buffer.length;
    let at = this.position;
    while (at < length) {
      if (this.skipTo !== undefined) {
        const close = this.closingTagAhead(at, this.skipTo);
        if (close === -1) {
          // The closing tag may be cut by the chunk boundary: its first characters wait for the rest.
          if (atEnd) at = length;
          else at = Math.max(at, length - this.skipTo.length);
          break;
        }
        this.skipTo = undefined;
        at = close;
        continue;
      }
      if (buffer.charCodeAt(at) !== 60 /* < */) {
        const lt = buffer.indexOf('<', at);
        let end = lt === -1 ? length : lt;
        if (lt === -1 && !atEnd) {
          // A reference, or a CR LF, cut by the chunk boundary waits for the rest.
          const amp = buffer.lastIndexOf('&', end - 1);
          if (amp >= at && end - amp < MAX_REFERENCE_LENGTH && buffer.indexOf(';', amp) === -1) end = amp;
          if (end > at && buffer.charCodeAt(end - 1) === 13 /* \r */) end--;
        }
        if (end > at) this.characters(at, end);
        at = end;
        if (lt === -1) break;
        continue;
      }
      const next = buffer.charCodeAt(at + 1);
      let end: number;
      if (next === 47 /* / */) end = this.closingTag(at);
      else if (next === 33 /* ! */) end = this.declaration(at, atEnd);
      else if (next === 63 /* ? */) end = this.skipPast(at, '?>');
      else end = this.openingTag(at);
      if (end === -1) break;
      at = end;
    }
    this.position = at;
  }

  private characters(from: number, to: number): void {
    let text = this.buffer.slice(from, to);
    if (this.open.length === 0) {
      if (WHITESPACE_ONLY.test(text)) return;
      this.mark = from + text.length - text.trimStart().length;
      this.fail('text data outside of root node');
    }
    if (text.includes('&')) text = this.decoded(text, from);
    if (text.includes('\r')) text = text.replace(/\r\n?/g, '\n');
    this.handlers.text(text);
  }

  private decoded(text: string, from: number): string {
    let out = '';
    let last = 0;
    REFERENCE.lastIndex = 0;
    for (let match = REFERENCE.exec(text); match !== null; match = REFERENCE.exec(text)) {
      const amp = text.indexOf('&', last);
      if (amp !== match.index) break;
      const name = match[1]!;
      let value: string | undefined;
      if (name.startsWith('#x')) value = codePointText(Number.parseInt(name.slice(2), 16));
      else if (name.startsWith('#')) value = codePointText(Number.parseInt(name.slice(1), 10));
      else value = PREDEFINED_ENTITIES[name];
      if (value === undefined) {
        this.mark = from + match.index;
        this.fail(name.startsWith('#') ? `invalid character reference &${name};` : `undefined entity &${name};`);
      }
      out += text.slice(last, match.index) + value;
      last = match.index + match[0].length;
    }
    const stray = text.indexOf('&', last);
    if (stray !== -1) {
      this.mark = from + stray;
      this.fail('an ampersand that starts no entity reference (write &amp;)');
    }
    return out + text.slice(last);
  }

  /** `<name ...>` or `<name .../>`: returns where it ends, or -1 when it is not complete yet. */
  private openingTag(at: number): number {
    const buffer = this.buffer;
    let gt = buffer.indexOf('>', at + 1);
    if (gt === -1) return -1;
    let nameEnd = at + 1;
    for (; nameEnd < gt; nameEnd++) {
      const c = buffer.charCodeAt(nameEnd);
      if (c === 32 || c === 9 || c === 10 || c === 13 || c === 47 /* / */) break;
    }
    for (let i = nameEnd; i < gt; i++) {
      const c = buffer.charCodeAt(i);
      if (c === 34 || c === 39) {
        gt = this.endOfQuotedTag(at);
        if (gt === -1) return -1;
        break;
      }
    }
    this.mark = at;
    const name = buffer.slice(at + 1, nameEnd);
    if (!isNameStart(buffer.charCodeAt(at + 1)))
      this.fail(name === '' ? 'a tag with no name' : `disallowed character in tag name: <${name}`);
    if (this.rootClosed) this.fail('text data outside of root node');
    if (this.open.length === 0) this.rootSeen = true;
    const selfClosing = buffer.charCodeAt(gt - 1) === 47 /* / */;
    this.skipRequested = false;
    this.handlers.openTag(name);
    if (selfClosing) {
      this.handlers.closeTag(name);
      if (this.open.length === 0) this.rootClosed = true;
    } else {
      this.open.push(name);
      if (this.skipRequested) this.skipTo = `</${name}`;
    }
    return gt + 1;
  }

  /** The `>` that ends a tag whose attribute values may hold `>`. */
  private endOfQuotedTag(at: number): number {
    const buffer = this.buffer;
    let quote = 0;
    for (let i = at + 1; i < buffer.length; i++) {
      const c = buffer.charCodeAt(i);
      if (quote !== 0) {
        if (c === quote) quote = 0;
        else if (c === 60 /* < */) {
          this.mark = i;
          this.fail('a < inside an attribute value');
        }
      } else if (c === 34 || c === 39) quote = c;
      else if (c === 62 /* > */) return i;
    }
    return -1;
  }

  /** Where `</name>` (or `</name >`) next starts, not `</name-longer>`; -1 when the buffer holds none yet. */
  private closingTagAhead(from: number, prefix: string): number {
    const buffer = this.buffer;
    for (let i = buffer.indexOf(prefix, from); i !== -1; i = buffer.indexOf(prefix, i + 1)) {
      const after = buffer.charCodeAt(i + prefix.length);
      if (Number.isNaN(after)) return -1;
      if (after === 62 /* > */ || after === 32 || after === 9 || after === 10 || after === 13) return i;
    }
    return -1;
  }

  private closingTag(at: number): number {
    const gt = this.buffer.indexOf('>', at + 2);
    if (gt === -1) return -1;
    this.mark = at;
    const name = this.buffer.slice(at + 2, gt).trimEnd();
    const expected = this.open[this.open.length - 1];
    if (expected !== name)
      this.fail(
        expected === undefined
          ? `unexpected close tag: </${name}>`
          : `unexpected close tag: </${name}> where </${expected}> was due`,
      );
    this.open.pop();
    this.handlers.closeTag(name);
    if (this.open.length === 0) this.rootClosed = true;
    return gt + 1;
  }

  /** `<!-- -->`, `<![CDATA[ ]]>` or `<!DOCTYPE ... [ ... ]>`. */
  private declaration(at: number, atEnd: boolean): number {
    const buffer = this.buffer;
    if (buffer.length - at < 9 && !atEnd) return -1;
    if (buffer.startsWith('<!--', at)) return this.skipPast(at, '-->');
    if (buffer.startsWith('<![CDATA[', at)) {
      const end = buffer.indexOf(']]>', at + 9);
      if (end === -1) return -1;
      this.mark = at;
      if (this.open.length === 0) this.fail('text data outside of root node');
      this.handlers.text(buffer.slice(at + 9, end));
      return end + 3;
    }
    if (buffer.startsWith('<!DOCTYPE', at)) {
      this.mark = at;
      if (this.rootSeen) this.fail('a DOCTYPE after the root element');
      return this.endOfDoctype(at);
    }
    this.mark = at;
    return this.fail('unknown markup declaration');
  }

  /** The end of a DOCTYPE, past its internal subset: declarations, comments and quoted strings may hold `>`. */
  private endOfDoctype(at: number): number {
    const buffer = this.buffer;
    let quote = 0;
    let inSubset = false;
    for (let i = at + 9; i < buffer.length; i++) {
      const c = buffer.charCodeAt(i);
      if (quote !== 0) {
        if (c === quote) quote = 0;
      } else if (c === 34 || c === 39) quote = c;
      else if (inSubset && c === 60 /* < */ && buffer.startsWith('<!--', i)) {
        const end = buffer.indexOf('-->', i + 4);
        if (end === -1) return -1;
        i = end + 2;
      } else if (c === 91 /* [ */) inSubset = true;
      else if (c === 93 /* ] */) inSubset = false;
      else if (c === 62 /* > */ && !inSubset) return i + 1;
    }
    return -1;
  }

  private skipPast(at: number, terminator: string): number {
    const end = this.buffer.indexOf(terminator, at + 2);
    return end === -1 ? -1 : end + terminator.length;
  }
}

/** A letter, `_`, `:` or any character past Latin-1's symbols: what may start an XML name (roughly; see above). */
function isNameStart(c: number): boolean {
  return (c >= 97 && c <= 122) || (c >= 65 && c <= 90) || c === 95 || c === 58 || c >= 0xc0;
}

function codePointText(codePoint: number): string | undefined {
  if (
    !Number.isInteger(codePoint) ||
    codePoint < 1 ||
    codePoint > 0x10ffff ||
    (codePoint >= 0xd800 && codePoint <= 0xdfff)
  )
    return undefined;
  return String.fromCodePoint(codePoint);
}
