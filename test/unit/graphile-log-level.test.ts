import { describe, expect, it } from 'vitest';
import { graphileLogLevel } from '../../src/db/migrate.js';

describe('graphile-worker log levels', () => {
  it('logs what graphile-worker tries again by itself as a warning, what needs someone as an error', () => {
    // Lines graphile-worker 0.17 writes at error level during a database outage it waits out.
    for (const line of [
      'Error with notify listener (trying again in 370ms): sorry, too many clients already',
      'Error occurred attempting to UNLISTEN: Error: Client has encountered a connection error and is not queryable',
      'Error occurred fetching jobs; will try again on next poll interval. Error: Connection terminated',
      "Failed to reset locked; we'll try again in 60000ms",
      'PostgreSQL idle client generated error: terminating connection due to administrator command',
      'PostgreSQL active client generated error: Connection terminated unexpectedly',
    ])
      expect(graphileLogLevel('error', line), line).toBe('warn');
    // What ends the pool (startWorker starts a new one): waited out when the database caused it.
    const lost = new Error('Connection terminated unexpectedly');
    const full = Object.assign(new Error('sorry, too many clients already'), { code: '53300' });
    const cut = Object.assign(new Error('terminating connection due to administrator command'), {
      code: '57P01',
    });
    for (const [line, cause] of [
      ["Failed to complete jobs '1':\nError: Connection terminated unexpectedly", lost],
      ["Failed to fail jobs '58', '50':\nerror: sorry, too many clients already", full],
      ['Worker exited with error: error: terminating connection', cut],
    ] as const)
      expect(graphileLogLevel('error', line, cause), line).toBe('warn');
    // Anything else that ends it needs someone, as does an unknown cause.
    const bug = new TypeError("Cannot read properties of undefined (reading 'id')");
    expect(graphileLogLevel('error', "Failed to complete jobs '1':\nTypeError: …", bug)).toBe(
      'error',
    );
    expect(graphileLogLevel('error', "Failed to complete jobs '1': Connection terminated")).toBe(
      'error',
    );
    expect(
      graphileLogLevel(
        'error',
        "Failed to fail jobs '2'",
        Object.assign(new Error('syntax error'), { code: '42601' }),
      ),
    ).toBe('error');
    expect(graphileLogLevel('error', 'Failed task 7 (webhook_send, 12ms, attempt 1 of 25)')).toBe(
      'debug',
    );
    expect(graphileLogLevel('warning', 'anything')).toBe('warn');
    expect(graphileLogLevel('info', 'Worker connected and looking for jobs')).toBe('debug');
  });
});
