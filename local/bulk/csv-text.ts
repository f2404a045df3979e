/** One CSV line (RFC 4180): a field with a comma, quote or line break is quoted, quotes doubled. */
export function csvLine(fields: readonly unknown[]): string {
  return `${fields
    .map((f) => {
      const text = f === undefined || f === null ? '' : String(f);
      return /[",\r\n]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
    })
    .join(',')}\n`;
}
