import { BatchFormatError, BatchSyntaxError } from './batch-errors';
import { decodeBatchText, type BatchInput } from './batch-text-decoder';
import type { BatchOptions, ParsedMark } from './mark-record';
import { usptoMarkFrom } from './uspto-fields';
import { XmlScanError, XmlScanner } from './xml-scanner';

/**
 * Streaming reader of the USPTO "Trademark Applications Daily XML" (DTD v2.0, root <trademark-applications-daily>,
 * one <case-file> per application). The annual backfile uses the same format, so the same code reads millions of
 * records in constant memory: the text is pushed through an XML scanner (xml-scanner.ts: element names and text,
 * well-formedness checked) chunk by chunk; the elements that hold none of the few useful fields (event statements,
 * correspondent, prior registrations ...) are passed over to their closing tag, unchecked inside, and only the
 * current case-file's useful fields are kept.
 *
 * Input: the file's bytes (or already decoded text) and the batch it belongs to.
 * Output: one result per <case-file>, in file order:
 *   - { ok: true, record, line, duplicate } where line is the line of the <case-file> tag;
 *   - { ok: false, error, line, serial? } for a case-file that cannot become a mark (no serial, unknown status
 *     code, absurd mark text ...). The batch goes on.
 * A serial seen earlier in the same input is still yielded, with duplicate: true. Daily files list transactions
 * in order, so the store applies results in order and the later case-file wins; the flag lets it count them.
 * The file ends with a thrown BatchSyntaxError / BatchEncodingError / BatchFormatError when the rest cannot be
 * read (malformed XML, bytes in the wrong encoding, a different document); records completed before that point
 * have already been yielded, and the batch must not be recorded as complete.
 */

const ROOT_ELEMENT = 'trademark-applications-daily';
const CASE_FILE_ELEMENT = 'case-file';
/** The DTD before the root is about 15 KB; a file with no root after this much text is not a daily XML file. */
const MAX_CHARS_BEFORE_ROOT = 1024 * 1024;
/** Enough for any real field; a longer text is only counted, so one runaway element cannot exhaust memory. */
const MAX_KEPT_FIELD_CHARS = 8 * 1024;
const MAX_GOODS_STATEMENTS_KEPT = 20;
/** Real case-files have a handful of owners, statements and classes; a file with thousands is not trusted further. */
const MAX_LIST_ENTRIES = 500;

type Field =
  | 'serial'
  | 'registrationNumber'
  | 'filingDate'
  | 'statusCode'
  | 'markText'
  | 'drawingCode'
  | 'statementTypeCode'
  | 'statementText'
  | 'niceClass'
  | 'ownerPartyType'
  | 'ownerName';

/** Paths below <case-file>; classification/status-code is a different field from the header's status-code. */
const FIELD_BY_PATH: ReadonlyMap<string, Field> = new Map<string, Field>([
  ['serial-number', 'serial'],
  ['registration-number', 'registrationNumber'],
  ['case-file-header/filing-date', 'filingDate'],
  ['case-file-header/status-code', 'statusCode'],
  ['case-file-header/mark-identification', 'markText'],
  ['case-file-header/mark-drawing-code', 'drawingCode'],
  ['case-file-statements/case-file-statement/type-code', 'statementTypeCode'],
  ['case-file-statements/case-file-statement/text', 'statementText'],
  ['classifications/classification/international-code', 'niceClass'],
  ['case-file-owners/case-file-owner/party-type', 'ownerPartyType'],
  ['case-file-owners/case-file-owner/party-name', 'ownerName'],
]);

const MAX_REMEMBERED_CHILDREN = 500;
const STATEMENT_PATH = 'case-file-statements/case-file-statement';
const OWNER_PATH = 'case-file-owners/case-file-owner';

/**
 * One element path below <case-file>, with its children made on first sight: a case-file has a couple of hundred
 * tags, and following a child by name costs far less than joining and hashing a path string per tag.
 */
class PathNode {
  private readonly children = new Map<string, PathNode>();
  readonly field: Field | undefined;
  /** A field is read at this path or below it; an element where none is (events, correspondent ...) is skipped. */
  readonly leadsToField: boolean;

  constructor(readonly path: string) {
    this.field = FIELD_BY_PATH.get(path);
    this.leadsToField = path === '' || [...FIELD_BY_PATH.keys()].some((p) => p === path || p.startsWith(`${path}/`));
  }

  child(name: string): PathNode {
    let node = this.children.get(name);
    if (node === undefined) {
      node = new PathNode(this.path === '' ? name : `${this.path}/${name}`);
      // A file that invents tag names without end is still read; only its first few hundred are remembered.
      if (this.children.size < MAX_REMEMBERED_CHILDREN) this.children.set(name, node);
    }
    return node;
  }
}

interface CaseFileDraft {
  line: number;
  serial?: string;
  registrationNumber?: string;
  filingDate?: string;
  statusCode?: string;
  markText?: string;
  markTextLength: number;
  drawingCode?: string;
  /** type-code of the case-file-statement being read: its text is kept only when it is goods and services. */
  statementTypeCode?: string;
  goodsTexts: string[];
  internationalCodes: string[];
  owners: { partyType?: number; name?: string }[];
  currentOwner: { partyType?: number; name?: string };
}

/** Byte-per-serial bitmap (8-digit serials): flat 12.5 MB whatever the file size, instead of a growing Set. */
class SeenSerials {
  private bits: Uint8Array | undefined;

  /** True when the serial had been seen before this call. */
  checkAndAdd(serial: string): boolean {
    const index = Number(serial);
    this.bits ??= new Uint8Array(100_000_000 / 8);
    const byteIndex = index >>> 3;
    const mask = 1 << (index & 7);
    const seen = ((this.bits[byteIndex] ?? 0) & mask) !== 0;
    this.bits[byteIndex] = (this.bits[byteIndex] ?? 0) | mask;
    return seen;
  }
}

function toResult(draft: CaseFileDraft, options: BatchOptions, seen: SeenSerials): ParsedMark {
  const result = usptoMarkFrom(
    {
      serial: draft.serial,
      registrationNumber: draft.registrationNumber,
      filingDate: draft.filingDate,
      statusCode: draft.statusCode,
      markText: draft.markText,
      markTextLength: draft.markTextLength,
      drawingCode: draft.drawingCode,
      classNumbers: draft.internationalCodes,
      goodsTexts: draft.goodsTexts,
      owners: draft.owners,
    },
    options,
  );
  if (!result.ok) return { ...result, line: draft.line };
  return { ok: true, record: result.record, line: draft.line, duplicate: seen.checkAndAdd(result.record.serial) };
}

function syntaxErrorFrom(error: unknown, scanner: XmlScanner): BatchSyntaxError {
  if (error instanceof XmlScanError) return new BatchSyntaxError(error.reason, error.line, error.column);
  return new BatchSyntaxError(error instanceof Error ? error.message : String(error), scanner.line, scanner.column);
}

export async function* parseUsptoDailyXml(
  input: BatchInput,
  options: BatchOptions,
): AsyncGenerator<ParsedMark, void, undefined> {
  const ready: ParsedMark[] = [];
  const seen = new SeenSerials();
  // Each open element's path below <case-file> (undefined outside one); the case-file itself is the root ''.
  const caseFileRoot = new PathNode('');
  const openPaths: (PathNode | undefined)[] = [];
  let caseFileDepth = -1;
  let draft: CaseFileDraft | undefined;
  let field: Field | undefined;
  let fieldText = '';
  let fieldLength = 0;
  let rootSeen = false;
  let charsBeforeRoot = 0;
  let formatError: BatchFormatError | undefined;

  const scanner: XmlScanner = new XmlScanner({
    openTag(name) {
      if (!rootSeen) {
        rootSeen = true;
        if (name !== ROOT_ELEMENT) {
          formatError = new BatchFormatError(
            `the root element is <${name}>, expected <${ROOT_ELEMENT}> (USPTO Trademark Applications Daily XML)`,
            scanner.line,
          );
          throw formatError;
        }
      }
      if (draft === undefined) {
        const isCaseFile = name === CASE_FILE_ELEMENT;
        openPaths.push(isCaseFile ? caseFileRoot : undefined);
        if (isCaseFile) {
          caseFileDepth = openPaths.length;
          draft = {
            line: scanner.line,
            markTextLength: 0,
            goodsTexts: [],
            internationalCodes: [],
            owners: [],
            currentOwner: {},
          };
        }
        return;
      }
      const node = (openPaths[openPaths.length - 1] ?? caseFileRoot).child(name);
      openPaths.push(node);
      // Most of a case-file (its event statements above all) holds nothing this reader keeps: it is passed over.
      if (!node.leadsToField) scanner.skipElement();
      if (node.path === STATEMENT_PATH) draft.statementTypeCode = undefined;
      if (node.path === OWNER_PATH) {
        draft.currentOwner = {};
        if (draft.owners.length < MAX_LIST_ENTRIES) draft.owners.push(draft.currentOwner);
      }
      field = node.field;
      fieldText = '';
      fieldLength = 0;
    },
    text(text) {
      if (field === undefined) return;
      fieldLength += text.length;
      if (fieldText.length < MAX_KEPT_FIELD_CHARS) fieldText += text.slice(0, MAX_KEPT_FIELD_CHARS - fieldText.length);
    },
    closeTag(name) {
      if (draft !== undefined && field !== undefined) {
        assignField(draft, field, fieldText, fieldLength);
        field = undefined;
      }
      if (draft !== undefined && name === CASE_FILE_ELEMENT && openPaths.length === caseFileDepth) {
        ready.push(toResult(draft, options, seen));
        draft = undefined;
      }
      openPaths.pop();
    },
  });

  const writtenOrError = (text: string): BatchSyntaxError | BatchFormatError | undefined => {
    try {
      scanner.write(text);
      return undefined;
    } catch (error) {
      return formatError ?? syntaxErrorFrom(error, scanner);
    }
  };

  for await (const text of decodeBatchText(input, { isXml: true })) {
    if (!rootSeen) {
      charsBeforeRoot += text.length;
      if (charsBeforeRoot > MAX_CHARS_BEFORE_ROOT) {
        throw new BatchFormatError('no root element in the first 1 MiB: not a USPTO daily XML file', scanner.line);
      }
    }
    const error = writtenOrError(text);
    // Records completed before a syntax error are good: they go out before the error ends the batch.
    yield* ready.splice(0, ready.length);
    if (error !== undefined) throw error;
  }
  let closingError: BatchSyntaxError | BatchFormatError | undefined;
  try {
    scanner.close();
  } catch (error) {
    closingError = formatError ?? syntaxErrorFrom(error, scanner);
  }
  yield* ready.splice(0, ready.length);
  if (closingError !== undefined) throw closingError;
}

function assignField(draft: CaseFileDraft, field: Field, text: string, length: number): void {
  switch (field) {
    case 'serial':
      draft.serial = text;
      return;
    case 'registrationNumber':
      draft.registrationNumber = text;
      return;
    case 'filingDate':
      draft.filingDate = text;
      return;
    case 'statusCode':
      draft.statusCode = text;
      return;
    case 'markText':
      draft.markText = text;
      draft.markTextLength = length;
      return;
    case 'drawingCode':
      draft.drawingCode = text;
      return;
    case 'statementTypeCode':
      draft.statementTypeCode = text.trim();
      return;
    case 'statementText':
      // Type codes GSnnnx are goods and services (statement_types.csv); other statements are not kept.
      if (draft.statementTypeCode?.startsWith('GS') && draft.goodsTexts.length < MAX_GOODS_STATEMENTS_KEPT) {
        draft.goodsTexts.push(text);
      }
      return;
    case 'niceClass':
      if (draft.internationalCodes.length < MAX_LIST_ENTRIES) draft.internationalCodes.push(text);
      return;
    case 'ownerPartyType': {
      const partyType = Number(text.trim());
      if (text.trim() !== '' && Number.isInteger(partyType)) draft.currentOwner.partyType = partyType;
      return;
    }
    case 'ownerName':
      draft.currentOwner.name = text;
      return;
  }
}
