import { describe, expect, it } from 'vitest';
import { parseCsv } from '../../src/aml/labels/csv.js';

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

  it('reads an empty input as nothing', () => {
    expect(parseCsv('')).toEqual({ records: [], errors: [] });
  });
});
