import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import type { Sql } from '../../src/db/index.js';
import { enqueueJob, JOB_NAMES, JOBS } from '../../src/db/jobs.js';

describe('job contracts', () => {
  it('names each contract by its task', () => {
    for (const name of JOB_NAMES) expect(JOBS[name].task).toBe(name);
  });

  it('refuses a payload its task would refuse, before writing anything', async () => {
    let wrote = false;
    const sql = (() => {
      wrote = true;
      return Promise.resolve([]);
    }) as unknown as Sql;
    await expect(
      enqueueJob(sql, 'travelrule_send', { message_id: 'not-a-number' } as never),
    ).rejects.toBeInstanceOf(z.ZodError);
    await expect(enqueueJob(sql, 'liveaml_check', {} as never)).rejects.toBeInstanceOf(z.ZodError);
    expect(wrote).toBe(false);
  });
});
