/**
 * The USPTO Open Data Portal's bulk datasets, as the data jobs read them:
 *   GET {origin}/api/v1/datasets/products/{product}?fileDataFromDate=YYYY-MM-DD&fileDataToDate=YYYY-MM-DD
 *   header X-API-KEY; answer { count, bulkDataProductBag: [ { productIdentifier, productFileBag: { count,
 *   fileDataBag: [ { fileName, fileSize, fileDataFromDate, fileDataToDate, fileDownloadURI, fileReleaseDate, ... } ] } } ] }
 * A file is fetched from its fileDownloadURI, which redirects to where the bytes are (docs/data-jobs.md records what
 * was checked of this and what was not). TRTDXFAP is the daily applications product (one zip a day, one XML in it);
 * TRTYRAP the annual backfile (dozens of zip parts).
 */
import * as z from 'zod';
import { isCalendarDate } from '../marks/mark-record';
import { SourceHttp, SourceHttpError, type SourceHttpOptions } from './source-http';

export const USPTO_PORTAL_ORIGIN = 'https://api.uspto.gov';
export const DAILY_PRODUCT = 'TRTDXFAP';
export const BACKFILE_PRODUCT = 'TRTYRAP';

const dateText = z.string().transform((value, context) => {
  const day = value.slice(0, 10);
  if (!isCalendarDate(day)) {
    context.addIssue({ code: 'custom', message: `"${value}" is not a date` });
    return z.NEVER;
  }
  return day;
});

const portalFileSchema = z.object({
  fileName: z.string().regex(/^[A-Za-z0-9._-]{1,200}$/, 'a plain file name'),
  fileSize: z.number().int().nonnegative().optional(),
  fileDataFromDate: dateText.optional(),
  fileDataToDate: dateText,
  fileDownloadURI: z.url(),
  fileReleaseDate: z.string().optional(),
});

const productAnswerSchema = z.object({
  bulkDataProductBag: z
    .array(
      z.object({
        productIdentifier: z.string(),
        productFileBag: z.object({ fileDataBag: z.array(z.unknown()).default([]) }).optional(),
      }),
    )
    .default([]),
});

export interface PortalFile {
  product: string;
  fileName: string;
  /** Bytes, as the listing states them (a download of another size is cut short). */
  fileSize?: number;
  /** The last day of data the file holds (YYYY-MM-DD): the batch date it is applied as. */
  dataDate: string;
  downloadUri: string;
}

export interface PortalListing {
  files: PortalFile[];
  /** Entries of the listing that could not be read, with why (the rest is still applied). */
  unreadable: string[];
}

export class UsptoPortal {
  private readonly http: SourceHttp;

  constructor(options: Omit<SourceHttpOptions, 'headers'> & { apiKey: string; origin?: string }) {
    this.http = new SourceHttp(options.origin ?? USPTO_PORTAL_ORIGIN, {
      ...options,
      headers: { 'X-API-KEY': options.apiKey },
    });
  }

  /** The product's files whose data falls between the two dates (inclusive), oldest data first. */
  async listFiles(product: string, from: string, to: string): Promise<PortalListing> {
    const query = new URLSearchParams({ fileDataFromDate: from, fileDataToDate: to, includeFiles: 'true' });
    const answer = productAnswerSchema.safeParse(
      await this.http.getJson(`/api/v1/datasets/products/${encodeURIComponent(product)}?${query}`),
    );
    if (!answer.success)
      throw new SourceHttpError(product, 200, `the ${product} listing is not in the documented shape`);
    const files: PortalFile[] = [];
    const unreadable: string[] = [];
    for (const bag of answer.data.bulkDataProductBag) {
      if (bag.productIdentifier.toUpperCase() !== product.toUpperCase()) continue;
      for (const entry of bag.productFileBag?.fileDataBag ?? []) {
        const file = portalFileSchema.safeParse(entry);
        if (!file.success) {
          unreadable.push(`${(entry as { fileName?: unknown })?.fileName ?? '?'}: ${file.error.issues[0]?.message}`);
          continue;
        }
        const { fileName, fileSize, fileDataToDate, fileDownloadURI } = file.data;
        // The listing's range is a filter on the portal's side; a file outside it is not this run's.
        if (fileDataToDate < from || fileDataToDate > to) continue;
        files.push({
          product,
          fileName,
          ...(fileSize !== undefined ? { fileSize } : {}),
          dataDate: fileDataToDate,
          downloadUri: fileDownloadURI,
        });
      }
    }
    files.sort((a, b) => a.dataDate.localeCompare(b.dataDate) || a.fileName.localeCompare(b.fileName));
    return { files, unreadable };
  }

  /** The file's bytes as a stream (the redirect is followed; the key goes to the portal only). */
  async download(file: PortalFile): Promise<ReadableStream<Uint8Array>> {
    const response = await this.http.get(file.downloadUri);
    if (!response.body) throw new SourceHttpError(file.fileName, response.status, `${file.fileName}: empty answer`);
    return response.body;
  }
}
