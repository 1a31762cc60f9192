/**
 * A small RFC 4180 reader: comma-separated fields, fields in double quotes may hold commas,
 * line breaks and doubled quotes (""). Line breaks are CRLF or LF. It never throws: a malformed
 * record (an unterminated quote, a quote inside an unquoted field, text after a closing quote)
 * is reported with its line number and reading resumes on the next line.
 */

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
          !(text[i] === '\r' && text[i + 1] === '\n')
        )
          field += text[i++];
        if (field.includes('"')) {
          error =
            'a double quote inside an unquoted field (quote the whole field and double the quote)';
          break;
        }
      }
      fields.push(field);
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
      if (error === UNTERMINATED) {
        // The quote ran to the end of the input: resume on the line after the record's first,
        // so that one stray quote does not hide every row below it.
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
