import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { ApiError, ErrorNumber } from '../../src/errors.js';
import { intParam, issueMessage, parseInput } from '../../src/api/schemas.js';

const Body = z.object({
  address: z.string(),
  count: z.number().optional(),
  whole: z.int().optional(),
  flag: z.boolean().optional(),
  nested: z.object({ name: z.string() }).optional(),
  list: z.array(z.string()).optional(),
});
const numbers = { address: ErrorNumber.INVALID_ADDRESS };

/** The error parseInput throws for a body. */
function refusal(data: unknown): ApiError {
  try {
    parseInput(Body, data, numbers);
  } catch (err) {
    if (err instanceof ApiError) return err;
    throw err;
  }
  throw new Error('accepted');
}

describe('parseInput messages', () => {
  it('says a missing field is required', () => {
    const err = refusal({});
    expect(err.message).toBe('address: is required');
    expect(err.errorNumber).toBe(ErrorNumber.INVALID_ADDRESS);
    expect(err.httpStatus).toBe(400);
    expect(refusal({ address: 'a', nested: {} }).message).toBe('nested.name: is required');
  });

  it.each([
    [{ address: 1 }, 'address: expected a string, not a number'],
    [{ address: true }, 'address: expected a string, not a boolean'],
    [{ address: null }, 'address: expected a string, not null'],
    [{ address: [] }, 'address: expected a string, not an array'],
    [{ address: {} }, 'address: expected a string, not an object'],
    [{ address: 'a', count: '5' }, 'count: expected a number, not a string'],
    [{ address: 'a', whole: 1.5 }, 'whole: must be a whole number'],
    [{ address: 'a', whole: '1' }, 'whole: expected a number, not a string'],
    [{ address: 'a', flag: 'true' }, 'flag: expected true or false, not a string'],
    [{ address: 'a', nested: [] }, 'nested: expected an object, not an array'],
    [{ address: 'a', nested: 'x' }, 'nested: expected an object, not a string'],
    [{ address: 'a', nested: { name: 7 } }, 'nested.name: expected a string, not a number'],
    [{ address: 'a', list: {} }, 'list: expected an array, not an object'],
    [{ address: 'a', list: 'x' }, 'list: expected an array, not a string'],
    [{ address: 'a', list: ['x', 2] }, 'list.1: expected a string, not a number'],
  ])('names what a field of the wrong type should be and what it is: %j', (data, message) => {
    expect(refusal(data).message).toBe(message);
  });

  it('keeps the error number of the field for a wrong type, 5000 for the others', () => {
    expect(refusal({ address: 1 }).errorNumber).toBe(ErrorNumber.INVALID_ADDRESS);
    expect(refusal({ address: 'a', count: 'x' }).errorNumber).toBe(ErrorNumber.BAD_REQUEST);
  });

  it('never shows the value it refuses', () => {
    const secret = 'sk_live_do_not_echo';
    for (const data of [
      { address: { key: secret } },
      { address: [secret] },
      { address: 'a', count: secret },
      { address: 'a', flag: secret },
    ])
      expect(refusal(data).message).not.toContain(secret);
  });

  it.each([[[]], [['address']], ['str'], [123], [true], [null]])(
    'says a body that is not a JSON object must be one: %j',
    (data) => {
      const err = refusal(data);
      expect(err.message).toBe('the body must be a JSON object');
      expect(err.errorNumber).toBe(ErrorNumber.BAD_REQUEST);
    },
  );

  it('says so for a union of objects too', () => {
    const Either = z.union([
      z.object({ approved: z.literal(true) }).strict(),
      z.object({ rejected: z.string() }).strict(),
    ]);
    expect(() => parseInput(Either, [])).toThrow('the body must be a JSON object');
    expect(() => parseInput(Either, 'x')).toThrow('the body must be a JSON object');
  });

  it("keeps a schema's own messages for other problems", () => {
    const Query = z.object({
      page: intParam({ min: 1, max: 10, description: 'Page.' }),
      name: z.string().min(3, 'must be at least 3 characters').optional(),
    });
    expect(() => parseInput(Query, {})).toThrow('page: is required');
    expect(() => parseInput(Query, { page: 'x' })).toThrow('page: must be a whole number');
    expect(() => parseInput(Query, { page: '1.5' })).toThrow('page: must be a whole number');
    // Past a bound, however far: said as past it (it was "must be a whole number").
    for (const [page, message] of [
      ['11', 'page: must be at most 10'],
      ['2147483648', 'page: must be at most 10'],
      ['9'.repeat(40), 'page: must be at most 10'],
      ['0', 'page: must be at least 1'],
      ['-1', 'page: must be at least 1'],
    ])
      expect(() => parseInput(Query, { page }), page).toThrow(message);
    expect(parseInput(Query, { page: '010' })).toEqual({ page: 10 });
    expect(() => parseInput(Query, { page: '1', name: 'ab' })).toThrow(
      'name: must be at least 3 characters',
    );
  });
});

describe('issueMessage', () => {
  const issueOf = (schema: z.ZodType, data: unknown) =>
    schema.safeParse(data, { reportInput: true }).error!.issues[0]!;

  it('tells a missing field from one of the wrong type by the input zod reports', () => {
    const schema = z.object({ on: z.boolean() });
    expect(issueMessage(issueOf(schema, {}))).toBe('on: is required');
    expect(issueMessage(issueOf(schema, { on: 1 }))).toBe(
      'on: expected true or false, not a number',
    );
    expect(issueMessage(issueOf(schema, 5))).toBe('the body must be a JSON object');
  });
});

describe('bounds, said plainly', () => {
  const Bounded = z.object({
    url: z.string().min(1).max(2048).optional(),
    note: z.string().max(10, 'the note is too long').optional(),
    count: z.int().min(1).max(100).optional(),
    ratio: z.number().gt(0).lt(1).optional(),
    tags: z.array(z.string()).min(1).max(3).optional(),
  });
  const message = (data: unknown) => {
    const r = Bounded.safeParse(data, { reportInput: true });
    if (r.success) throw new Error('accepted');
    return issueMessage(r.error.issues[0]!);
  };

  it.each([
    [{ url: 'x'.repeat(2049) }, 'url: must be at most 2048 characters'],
    [{ url: '' }, 'url: must not be empty'],
    [{ count: 0 }, 'count: must be at least 1'],
    [{ count: 101 }, 'count: must be at most 100'],
    [{ ratio: 1 }, 'ratio: must be below 1'],
    [{ ratio: 0 }, 'ratio: must be above 0'],
    [{ tags: [] }, 'tags: must not be empty'],
    [{ tags: ['a', 'b', 'c', 'd'] }, 'tags: must be at most 3 items'],
    // A schema's own words stay.
    [{ note: 'x'.repeat(11) }, 'note: the note is too long'],
  ])('%j → %s', (data, expected) => {
    expect(message(data)).toBe(expected);
  });
});
