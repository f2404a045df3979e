/**
 * Errors that end a whole batch file. A bad record is never one of these (parsers yield it as a rejected result);
 * these mean the rest of the file cannot be read, so the batch must not be recorded as complete.
 */

abstract class BatchFileError extends Error {
  /** 1-based line of the input where reading stopped. */
  readonly line: number;

  protected constructor(name: string, message: string, line: number, column?: number) {
    super(`line ${line}${column === undefined ? '' : `, column ${column}`}: ${message}`);
    this.name = name;
    this.line = line;
  }
}

/** The bytes are not text in the encoding the file declares (or UTF-8 when it declares none). */
export class BatchEncodingError extends BatchFileError {
  constructor(message: string, line: number) {
    super('BatchEncodingError', message, line);
  }
}

/** The file is not well-formed XML or CSV from this point on. */
export class BatchSyntaxError extends BatchFileError {
  readonly column: number | undefined;

  constructor(message: string, line: number, column?: number) {
    super('BatchSyntaxError', message, line, column);
    this.column = column;
  }
}

/** Well-formed, but not the kind of file the parser was asked to read (wrong root element, missing CSV columns). */
export class BatchFormatError extends BatchFileError {
  constructor(message: string, line: number) {
    super('BatchFormatError', message, line);
  }
}
