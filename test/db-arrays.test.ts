/**
 * Arrays read back through Tollgate's pool (src/db/index.ts, postgres.js with its patch): a NULL
 * element is null, whatever the element type and wherever it sits, and an element whose text is
 * "NULL" stays that text. The published driver read an unquoted NULL as the text "NULL"
 * (porsager/postgres#1124), so a coinbase's input showed `"from": "NULL"` in tx_detail.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freshDatabase, type TestDatabase } from './helpers/db.js';

let db: TestDatabase;
beforeAll(async () => {
  db = await freshDatabase();
});
afterAll(async () => {
  await db?.drop();
});

describe('arrays from the database', () => {
  it('read a NULL element as null and the text "NULL" as text', async () => {
    const [row] = await db.sql`select
        array[null, 'a', 'NULL', 'null', null]::text[] as text_edges,
        array[null]::text[] as only_null,
        array['a,b', '"q"', null, 'x y']::text[] as quoted,
        array[1, null, 3]::int[] as ints,
        array[[null, 'b'], ['c', null]]::text[] as nested,
        (select array_agg(x order by n) from (values (1, 'a'), (2, null)) v(n, x)) as aggregated,
        '{}'::text[] as empty`;
    expect(row).toEqual({
      text_edges: [null, 'a', 'NULL', 'null', null],
      only_null: [null],
      quoted: ['a,b', '"q"', null, 'x y'],
      ints: [1, null, 3],
      nested: [
        [null, 'b'],
        ['c', null],
      ],
      aggregated: ['a', null],
      empty: [],
    });
  });

  it('send null elements as NULL and read them back', async () => {
    const sent = ['a', null, 'NULL', ''];
    const [row] =
      await db.sql`select ${sent}::text[] as back, array_position(${sent}::text[], null) as at`;
    expect(row).toEqual({ back: sent, at: 2 });
  });
});
