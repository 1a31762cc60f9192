/**
 * A small RFC 4180 reader: comma-separated fields, fields in double quotes may hold commas,
 * line breaks and doubled quotes (""). Line breaks are CRLF or LF. It never throws: a malformed
 * record (an unterminated quote, a quote inside an unquoted field, text after a closing quote)
 * is reported with its line number and reading resumes on the next line. So is a record past the
 * bounds below (a one-line file of 300 MB of commas ran the process out of memory).
 */

/** More fields than any label file has (it has five columns). */
export const MAX_CSV_FIELDS = 100;
/** Longer than any address, name or source of a label. */
export const MAX_CSV_FIELD_CHARS = 10_000;

export interface CsvRecord {
  /** 1-based line on which the record starts (a quoted field may carry it over several lines). */
  line: number;
  fields: string[];
}

export interface CsvError {
  line: number;
  reason: string;
}

const UNTERMINATED = 'unterminated quoted field';
const TOO_LONG = `a field longer than ${MAX_CSV_FIELD_CHARS} characters`;

export function parseCsv(input: string): { records: CsvRecord[]; errors: CsvError[] } {
  const text = input.startsWith('\uFEFF') ? input.slice(1) : input;
  const records: CsvRecord[] = [];
  const errors: CsvError[] = [];
  let i = 0;
  let line = 1;

  /** Moves past the rest of the physical line and its break, after a malformed record. */
  const skipLine = () => {
    while (i < text.length && text[i] !== '\n') i++;
    if (i < text.length) {
      i++;
      line++;
    }
  };

  while (i < text.length) {
    const start = line;
    const startIndex = i;
    const fields: string[] = [];
    let error: string | undefined;
    for (;;) {
      let field = '';
      if (text[i] === '"') {
        i++;
        let closed = false;
        while (i < text.length) {
          const c = text[i]!;
          if (c === '"') {
            if (text[i + 1] === '"') {
              field += '"';
              i += 2;
              continue;
            }
            i++;
            closed = true;
            break;
          }
          if (c === '\n') line++;
          field += c;
          i++;
          if (field.length > MAX_CSV_FIELD_CHARS) break;
        }
        if (field.length > MAX_CSV_FIELD_CHARS) {
          error = TOO_LONG;
          break;
        }
        if (!closed) {
          error = UNTERMINATED;
          break;
        }
        if (
          i < text.length &&
          text[i] !== ',' &&
          text[i] !== '\n' &&
          !(text[i] === '\r' && text[i + 1] === '\n')
        ) {
          error = 'unexpected text after a closing quote';
          break;
        }
      } else {
        while (
          i < text.length &&
          text[i] !== ',' &&
          text[i] !== '\n' &&
          !(text[i] === '\r' && text[i + 1] === '\n') &&
          field.length <= MAX_CSV_FIELD_CHARS
        )
          field += text[i++];
        if (field.length > MAX_CSV_FIELD_CHARS) {
          error = TOO_LONG;
          break;
        }
        if (field.includes('"')) {
          error =
            'a double quote inside an unquoted field (quote the whole field and double the quote)';
          break;
        }
      }
      fields.push(field);
      if (fields.length > MAX_CSV_FIELDS) {
        error = `more than ${MAX_CSV_FIELDS} fields`;
        break;
      }
      if (text[i] === ',') {
        i++;
        continue;
      }
      // End of the record: a line break or the end of the input.
      if (text[i] === '\r') i++;
      if (text[i] === '\n') {
        i++;
        line++;
      }
      break;
    }
    if (error !== undefined) {
      errors.push({ line: start, reason: error });
      if (error === UNTERMINATED || error === TOO_LONG) {
        // The quote ran to the end of the input (or past the bound): resume on the line after the
        // record's first, so that one stray quote does not hide every row below it.
        i = startIndex;
        line = start;
      }
      skipLine();
      continue;
    }
    if (fields.length === 1 && fields[0] === '') continue; // a blank line
    records.push({ line: start, fields });
  }
  return { records, errors };
}
