import { describe, expect, it } from 'vitest';
import { MAX_CSV_FIELD_CHARS, MAX_CSV_FIELDS, parseCsv } from '../../src/aml/labels/csv.js';

describe('parseCsv (RFC 4180)', () => {
  it('reads plain records with LF or CRLF breaks, with or without a final break', () => {
    expect(parseCsv('a,b,c\n1,2,3\n')).toEqual({
      records: [
        { line: 1, fields: ['a', 'b', 'c'] },
        { line: 2, fields: ['1', '2', '3'] },
      ],
      errors: [],
    });
    expect(parseCsv('a,b\r\n1,2').records).toEqual([
      { line: 1, fields: ['a', 'b'] },
      { line: 2, fields: ['1', '2'] },
    ]);
  });

  it('keeps empty fields, including a trailing one', () => {
    expect(parseCsv('a,,c,\n').records).toEqual([{ line: 1, fields: ['a', '', 'c', ''] }]);
    expect(parseCsv(',\n').records).toEqual([{ line: 1, fields: ['', ''] }]);
  });

  it('reads quoted fields with commas, doubled quotes and line breaks, numbering lines from the record start', () => {
    const text = 'x,"a, b","say ""hi"""\n"multi\nline\r\nfield",2,""\nlast,1,2\n';
    expect(parseCsv(text)).toEqual({
      records: [
        { line: 1, fields: ['x', 'a, b', 'say "hi"'] },
        { line: 2, fields: ['multi\nline\r\nfield', '2', ''] },
        { line: 5, fields: ['last', '1', '2'] },
      ],
      errors: [],
    });
  });

  it('skips blank lines and a byte order mark', () => {
    expect(parseCsv('\uFEFFa,b\n\n\r\n1,2\n\n').records).toEqual([
      { line: 1, fields: ['a', 'b'] },
      { line: 4, fields: ['1', '2'] },
    ]);
  });

  it('reports a quote inside an unquoted field and goes on with the next line', () => {
    expect(parseCsv('a,b\n1,x"y\n2,3\n')).toEqual({
      records: [
        { line: 1, fields: ['a', 'b'] },
        { line: 3, fields: ['2', '3'] },
      ],
      errors: [
        { line: 2, reason: expect.stringContaining('double quote inside an unquoted field') },
      ],
    });
  });

  it('reports text after a closing quote', () => {
    const { records, errors } = parseCsv('"a"b,c\nd,e');
    expect(errors).toEqual([{ line: 1, reason: 'unexpected text after a closing quote' }]);
    expect(records).toEqual([{ line: 2, fields: ['d', 'e'] }]);
  });

  it('reports an unterminated quote and resumes on the line after it, so later rows are not lost', () => {
    const { records, errors } = parseCsv('h1,h2\n1,"open\n2,3\n4,5\n');
    expect(errors).toEqual([{ line: 2, reason: 'unterminated quoted field' }]);
    expect(records).toEqual([
      { line: 1, fields: ['h1', 'h2'] },
      { line: 3, fields: ['2', '3'] },
      { line: 4, fields: ['4', '5'] },
    ]);
  });

  it('keeps line numbers right after an error that follows a multi-line field', () => {
    const { records, errors } = parseCsv('"a\nb"x\nc\n');
    expect(errors).toEqual([{ line: 1, reason: 'unexpected text after a closing quote' }]);
    expect(records).toEqual([{ line: 3, fields: ['c'] }]);
  });

  it('refuses a record past its bounds (too many fields, a field too long) and goes on with the next line', () => {
    // A one-line file of 300 MB of commas ran the process out of memory.
    const commas = ','.repeat(5_000_000);
    const long = 'x'.repeat(MAX_CSV_FIELD_CHARS + 1);
    const { records, errors } = parseCsv(
      `h1,h2\n${commas}\n1,${long}\n2,"${long}\nstill quoted"\n3,4\n`,
    );
    expect(errors).toEqual([
      { line: 2, reason: `more than ${MAX_CSV_FIELDS} fields` },
      { line: 3, reason: `a field longer than ${MAX_CSV_FIELD_CHARS} characters` },
      { line: 4, reason: `a field longer than ${MAX_CSV_FIELD_CHARS} characters` },
      // The quoted field's second line is read on its own, as after an unterminated quote.
      {
        line: 5,
        reason:
          'a double quote inside an unquoted field (quote the whole field and double the quote)',
      },
    ]);
    // The rows after them are not lost.
    expect(records).toEqual([
      { line: 1, fields: ['h1', 'h2'] },
      { line: 6, fields: ['3', '4'] },
    ]);
    // At the bounds exactly: taken.
    const edge = parseCsv(
      `${'a,'.repeat(MAX_CSV_FIELDS - 1)}a\n"${'y'.repeat(MAX_CSV_FIELD_CHARS)}"\n`,
    );
    expect(edge.errors).toEqual([]);
    expect(edge.records.map((r) => r.fields.length)).toEqual([MAX_CSV_FIELDS, 1]);
  });

  it('reads an empty input as nothing', () => {
    expect(parseCsv('')).toEqual({ records: [], errors: [] });
  });
});
