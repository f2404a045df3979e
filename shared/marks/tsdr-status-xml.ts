import { SaxesParser } from 'saxes';
import { BatchFormatError, BatchSyntaxError } from './batch-errors';
import { decodeBatchText } from './batch-text-decoder';
import type { BatchOptions, MarkRecord } from './mark-record';
import { usptoMarkFrom } from './uspto-fields';

/**
 * One TSDR (Trademark Status & Document Retrieval) status document -> one MarkRecord. TSDR answers in two XML
 * vocabularies: WIPO ST.66 (root Transaction in the ".../XMLSchema/trademarks" namespace, element TradeMark) and
 * WIPO ST.96 (root Transaction or TrademarkTransaction in an ST.96 Trademark namespace, element Trademark). The
 * namespace prefixes differ between releases (tmk:, ns2: ...), so elements are matched by namespace-free local name.
 * A status document is a few tens of KB, so it is read whole into a small element tree.
 */

const MAX_DOCUMENT_CHARS = 10 * 1024 * 1024;
const ST66_NAMESPACE = 'http://www.wipo.int/standards/XMLSchema/trademarks';
const ST96_NAMESPACE_PATTERN = /^http:\/\/www\.wipo\.int\/standards\/XMLSchema\/(ST96\/Trademark|Trademark\/\d+)$/;

export type TsdrForm = 'ST.66' | 'ST.96';

export type ParsedTsdrStatus =
  | { ok: true; record: MarkRecord; form: TsdrForm }
  | { ok: false; error: string; form: TsdrForm; serial?: string };

interface XmlElement {
  name: string;
  namespace: string;
  attributes: Record<string, string>;
  children: XmlElement[];
  text: string;
}

async function readDocumentText(input: string | Buffer): Promise<string> {
  let text = '';
  const single = (async function* () {
    yield input;
  })();
  for await (const chunk of decodeBatchText(single, { isXml: true })) {
    text += chunk;
    if (text.length > MAX_DOCUMENT_CHARS) {
      throw new BatchFormatError('document is larger than 10 MiB: not a TSDR status document', 1);
    }
  }
  return text;
}

function buildTree(text: string): XmlElement {
  const parser = new SaxesParser({ xmlns: true, position: true });
  const stack: XmlElement[] = [];
  let root: XmlElement | undefined;
  parser.on('opentag', (tag) => {
    const attributes: Record<string, string> = {};
    for (const attribute of Object.values(tag.attributes)) attributes[attribute.local] = attribute.value;
    const element: XmlElement = { name: tag.local, namespace: tag.uri, attributes, children: [], text: '' };
    stack[stack.length - 1]?.children.push(element);
    root ??= element;
    stack.push(element);
  });
  const appendText = (value: string): void => {
    const current = stack[stack.length - 1];
    if (current) current.text += value;
  };
  parser.on('text', appendText);
  parser.on('cdata', appendText);
  parser.on('closetag', () => {
    stack.pop();
  });
  try {
    parser.write(text).close();
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    const positioned = /^(\d+):(\d+): (.*)$/s.exec(message);
    if (positioned) throw new BatchSyntaxError(positioned[3] ?? message, Number(positioned[1]), Number(positioned[2]));
    throw new BatchSyntaxError(message, parser.line, parser.column);
  }
  if (root === undefined) throw new BatchSyntaxError('document must contain a root element', parser.line);
  return root;
}

function child(element: XmlElement | undefined, name: string): XmlElement | undefined {
  return element?.children.find((candidate) => candidate.name === name);
}

function childrenNamed(element: XmlElement | undefined, name: string): XmlElement[] {
  return element?.children.filter((candidate) => candidate.name === name) ?? [];
}

/** Follows a path of local names, taking the first match at each step. */
function at(element: XmlElement | undefined, ...names: string[]): XmlElement | undefined {
  return names.reduce<XmlElement | undefined>((current, name) => child(current, name), element);
}

/** Every element reached by a path of local names, all matches at each step. */
function allAt(element: XmlElement | undefined, ...names: string[]): XmlElement[] {
  return names.reduce<XmlElement[]>(
    (current, name) => current.flatMap((candidate) => childrenNamed(candidate, name)),
    element ? [element] : [],
  );
}

function textOf(element: XmlElement | undefined): string | undefined {
  const text = element?.text.replace(/\s+/g, ' ').trim();
  return text ? text : undefined;
}

function firstDescendant(element: XmlElement | undefined, name: string): XmlElement | undefined {
  if (element === undefined) return undefined;
  for (const candidate of element.children) {
    if (candidate.name === name) return candidate;
    const found = firstDescendant(candidate, name);
    if (found) return found;
  }
  return undefined;
}

interface TsdrFields {
  serial?: string;
  registrationNumber?: string;
  filingDate?: string;
  statusCode?: string;
  markText?: string;
  drawingCode?: string;
  classNumbers: string[];
  goodsTexts: string[];
  owners: { partyType?: number; name?: string }[];
}

function st66Fields(root: XmlElement): TsdrFields {
  const transactionData = at(root, 'TradeMarkTransactionBody', 'TransactionContentDetails', 'TransactionData');
  const mark = at(transactionData, 'TradeMarkDetails', 'TradeMark');
  const classDescriptions = allAt(
    mark,
    'GoodsServicesDetails',
    'GoodsServices',
    'ClassDescriptionDetails',
    'ClassDescription',
  );
  return {
    serial: textOf(child(mark, 'ApplicationNumber')),
    registrationNumber: textOf(child(mark, 'RegistrationNumber')),
    filingDate: textOf(child(mark, 'ApplicationDate')),
    statusCode: textOf(child(mark, 'MarkCurrentStatusCode')),
    markText: textOf(at(mark, 'WordMarkSpecification', 'MarkVerbalElementText')),
    drawingCode: textOf(at(mark, 'TradeMarkExt', 'MarkFeatureCode')),
    classNumbers: classDescriptions.map((description) => textOf(child(description, 'ClassNumber')) ?? ''),
    goodsTexts: classDescriptions.map((description) => textOf(child(description, 'GoodsServicesDescription')) ?? ''),
    // ST.66 lists applicants beside the mark; the party type sits in ApplicantExt.
    owners: allAt(transactionData, 'ApplicantDetails', 'Applicant').map((applicant) => ({
      partyType: Number(textOf(at(applicant, 'ApplicantExt', 'PartyTypeCode')) ?? Number.NaN) || undefined,
      name: textOf(firstDescendant(child(applicant, 'ApplicantAddressBook'), 'FreeFormatNameLine')),
    })),
  };
}

function st96Fields(root: XmlElement): TsdrFields {
  const mark = at(
    root,
    'TrademarkTransactionBody',
    'TransactionContentBag',
    'TransactionData',
    'TrademarkBag',
    'Trademark',
  );
  const goodsServices = allAt(mark, 'GoodsServicesBag', 'GoodsServices');
  const classifications = goodsServices.flatMap((entry) =>
    allAt(entry, 'GoodsServicesClassificationBag', 'GoodsServicesClassification'),
  );
  const niceClassifications = classifications.filter(
    (classification) => textOf(child(classification, 'ClassificationKindCode')) === 'Nice',
  );
  return {
    serial: textOf(at(mark, 'ApplicationNumber', 'ApplicationNumberText')),
    registrationNumber: textOf(child(mark, 'RegistrationNumber')),
    filingDate: textOf(child(mark, 'ApplicationDate')),
    statusCode: textOf(child(mark, 'MarkCurrentStatusCode')),
    markText: textOf(
      at(mark, 'MarkRepresentation', 'MarkReproduction', 'WordMarkSpecification', 'MarkVerbalElementText'),
    ),
    drawingCode: textOf(
      at(mark, 'MarkRepresentation', 'MarkDescriptionBag', 'NationalMarkDescription', 'MarkFeatureCode'),
    ),
    classNumbers: niceClassifications.map((classification) => textOf(child(classification, 'ClassNumber')) ?? ''),
    goodsTexts: goodsServices
      .flatMap((entry) => allAt(entry, 'ClassDescriptionBag', 'ClassDescription', 'GoodsServicesDescriptionText'))
      .map((description) => textOf(description) ?? ''),
    // ST.96 carries the USPTO party type (10, 20, 30, 31 ...) as the applicant's sequenceNumber attribute.
    owners: allAt(mark, 'ApplicantBag', 'Applicant').map((applicant) => ({
      partyType: Number(applicant.attributes.sequenceNumber ?? Number.NaN) || undefined,
      name:
        textOf(at(applicant, 'Contact', 'Name', 'EntityName')) ??
        textOf(at(applicant, 'Contact', 'Name', 'OrganizationName', 'OrganizationStandardName')) ??
        textOf(at(applicant, 'Contact', 'Name', 'PersonName', 'PersonFullName')),
    })),
  };
}

function formOf(root: XmlElement): TsdrForm {
  if (root.namespace === ST66_NAMESPACE) return 'ST.66';
  if (ST96_NAMESPACE_PATTERN.test(root.namespace)) return 'ST.96';
  throw new BatchFormatError(
    `root element <${root.name}> in namespace "${root.namespace}" is neither TSDR ST.66 nor ST.96 status XML`,
    1,
  );
}

export async function parseTsdrStatusXml(input: string | Buffer, options: BatchOptions): Promise<ParsedTsdrStatus> {
  const root = buildTree(await readDocumentText(input));
  const form = formOf(root);
  const fields = form === 'ST.66' ? st66Fields(root) : st96Fields(root);

  const result = usptoMarkFrom(fields, options);
  return result.ok ? { ok: true, record: result.record, form } : { ...result, form };
}
