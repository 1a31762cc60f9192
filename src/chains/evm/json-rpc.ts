import { setTimeout as sleep } from 'node:timers/promises';
import { request } from 'undici';
import { MAX_BODY_BYTES, readBody } from './node-fetch.js';

/**
 * A JSON-RPC 2.0 client over HTTP for the indexer's block and receipt reads, the calls a backfill
 * makes thousands of times a second. Calls made in the same turn of the event loop go as one batch
 * (one POST, its answer read and parsed once); each call is retried on its own, as viem's HTTP
 * transport does, and fails with one of three errors saying what happened: the node answered it
 * with an error (NodeRpcError), the node could not be asked or answered something that is not
 * JSON-RPC (NodeHttpError), or it did not answer in time (NodeTimeoutError). A stop signal gives
 * every waiting call up at once, without retrying it.
 *
 * viem's transport does the same for every other call; for these, it built per call a fetch
 * Request nobody read, a timeout error captured eagerly (a stack and the body stringified again)
 * and a Response read back, a tenth of the indexer's time in a backfill.
 */

/** The node understood the call and refused it (JSON-RPC `error`). */
export class NodeRpcError extends Error {
  readonly code: number;
  /** The error's message as the node gave it. */
  readonly nodeMessage: string;
  readonly data: unknown;
  constructor(method: string, error: { code?: unknown; message?: unknown; data?: unknown }) {
    const code = typeof error.code === 'number' ? error.code : -1;
    const nodeMessage = String(error.message ?? '');
    super(`the node answered ${method} with error ${code}: ${nodeMessage}`);
    this.name = 'NodeRpcError';
    this.code = code;
    this.nodeMessage = nodeMessage;
    this.data = error.data;
  }
}

/** The node could not be asked, answered with an HTTP error status, or not with JSON-RPC. */
export class NodeHttpError extends Error {
  readonly status: number | undefined;
  constructor(message: string, opts: { status?: number; cause?: unknown } = {}) {
    super(message, { cause: opts.cause });
    this.name = 'NodeHttpError';
    this.status = opts.status;
  }
}

/**
 * An answer larger than its request's limit (refused while it was read). Not retried: the node
 * would give the same answer again; a caller reads what it asked for in smaller parts.
 */
export class NodeAnswerTooLarge extends NodeHttpError {
  constructor(message: string) {
    super(message);
    this.name = 'NodeAnswerTooLarge';
  }
}

/** The node did not answer within the timeout. */
export class NodeTimeoutError extends Error {
  constructor(method: string, timeoutMs: number) {
    super(`the node did not answer ${method} within ${timeoutMs} ms`);
    this.name = 'NodeTimeoutError';
  }
}

export interface JsonRpcHttpOptions {
  /** Per request to the node (a batch is one request). */
  timeoutMs?: number;
  /** Attempts after the first, for a call that failed in a way a retry can help. */
  retryCount?: number;
  /** The first retry's delay; doubled for each next one. */
  retryDelayMs?: number;
  /** The most calls in one request. */
  batchSize?: number;
  /** The largest answer to one call (a batch's answer may be this many times up to 8 calls). */
  maxAnswerBytes?: number;
  /**
   * After a node refused a batch, how long the smaller size holds before batches twice as large
   * are tried again (up to batchSize). 10 minutes by default.
   */
  regrowMs?: number;
  /**
   * Told when a refused batch makes batches smaller than any refusal had made them: the new size
   * and what the node did (not again when a larger size tried after regrowMs is refused).
   */
  onBatchLimit?: (size: number, reason: string) => void;
  /** When it aborts, every call still waiting is given up (its error the signal's reason). */
  signal?: AbortSignal;
}

interface Call {
  id: number;
  method: string;
  params: unknown[];
  resolve(value: unknown): void;
  reject(err: unknown): void;
}

/** JSON-RPC codes a retry can help with: unknown (-1), limit exceeded, internal error (viem's). */
const RETRYABLE_CODES = new Set([-1, -32005, -32603]);
/** HTTP statuses a retry can help with (viem's list). */
const RETRYABLE_STATUSES = new Set([403, 408, 413, 429, 500, 502, 503, 504]);

function retryable(err: unknown): boolean {
  if (err instanceof NodeAnswerTooLarge) return false;
  if (err instanceof NodeRpcError) return RETRYABLE_CODES.has(err.code);
  if (err instanceof NodeHttpError)
    return err.status === undefined || RETRYABLE_STATUSES.has(err.status);
  return err instanceof NodeTimeoutError;
}

export class JsonRpcHttp {
  private readonly url: string;
  private readonly headers: Record<string, string>;
  private readonly timeoutMs: number;
  private readonly retryCount: number;
  private readonly retryDelayMs: number;
  private readonly batchSize: number;
  private readonly maxAnswerBytes: number;
  private readonly regrowMs: number;
  private readonly onBatchLimit: ((size: number, reason: string) => void) | undefined;
  private readonly signal: AbortSignal | undefined;
  private queue: Call[] = [];
  private scheduled = false;
  /**
   * The most calls in one request now: batchSize, or half of the last batch the node refused (a
   * node's or a proxy's limit on a batch's calls or size; 1 for a node without batches), twice
   * that again after regrowMs without a refusal.
   */
  private size: number;
  /** When `size` was last lowered, confirmed by a refusal or doubled: regrowMs counts from here. */
  private sizeSince = 0;
  /** The smallest size a refusal has brought batches to (onBatchLimit is told of smaller ones). */
  private smallest: number;
  private nextId = 1;

  constructor(rpcUrl: string, opts: JsonRpcHttpOptions = {}) {
    const url = new URL(rpcUrl);
    this.headers = { 'content-type': 'application/json' };
    // Credentials in the URL go as Basic authorization, as viem sends them, and never in a message.
    if (url.username || url.password) {
      const user = decodeURIComponent(url.username);
      const pass = decodeURIComponent(url.password);
      this.headers.authorization = `Basic ${Buffer.from(`${user}:${pass}`).toString('base64')}`;
      url.username = '';
      url.password = '';
    }
    this.url = url.toString();
    this.timeoutMs = opts.timeoutMs ?? 15_000;
    this.retryCount = opts.retryCount ?? 2;
    this.retryDelayMs = opts.retryDelayMs ?? 150;
    this.batchSize = opts.batchSize ?? 100;
    this.size = this.batchSize;
    this.smallest = this.batchSize;
    this.maxAnswerBytes = opts.maxAnswerBytes ?? MAX_BODY_BYTES;
    this.regrowMs = opts.regrowMs ?? 600_000;
    this.onBatchLimit = opts.onBatchLimit;
    this.signal = opts.signal;
  }

  /** The call's `result`, retried as the errors above allow. */
  async request<T>(method: string, params: unknown[]): Promise<T> {
    for (let attempt = 0; ; attempt++) {
      try {
        return (await this.once(method, params)) as T;
      } catch (err) {
        if (attempt >= this.retryCount || !retryable(err) || this.signal?.aborted) throw err;
        await this.pause(this.retryDelayMs * 2 ** attempt);
      }
    }
  }

  private async pause(ms: number): Promise<void> {
    try {
      await sleep(ms, undefined, { signal: this.signal });
    } catch {
      throw this.signal?.reason;
    }
  }

  private once(method: string, params: unknown[]): Promise<unknown> {
    if (this.signal?.aborted) return Promise.reject(this.signal.reason);
    return new Promise((resolve, reject) => {
      this.queue.push({ id: this.nextId++, method, params, resolve, reject });
      if (!this.scheduled) {
        this.scheduled = true;
        setImmediate(() => this.flush());
      }
    });
  }

  private flush(): void {
    this.scheduled = false;
    const queue = this.queue;
    this.queue = [];
    if (this.size < this.batchSize && Date.now() - this.sizeSince >= this.regrowMs) {
      this.size = Math.min(this.batchSize, this.size * 2);
      this.sizeSince = Date.now();
    }
    this.sendIn(queue, this.size);
  }

  private sendIn(calls: Call[], size: number): void {
    for (let i = 0; i < calls.length; i += size) void this.send(calls.slice(i, i + size));
  }

  /**
   * The node refused this batch as a whole: its calls go again in batches of half its size, and
   * so do later ones; no larger than the size already learned (a batch sent before a refusal
   * that lowered it is refused in turn and goes again in that size).
   */
  private refused(calls: Call[], reason: string): void {
    const size = Math.max(1, Math.floor(calls.length / 2));
    this.sizeSince = Date.now();
    if (size < this.size) this.size = size;
    if (size < this.smallest) {
      this.smallest = size;
      this.onBatchLimit?.(size, reason);
    }
    this.sendIn(calls, this.size);
  }

  /**
   * One request with these calls; settles every one of them. A batch the node does not take as
   * one (answered with a single object, as JSON-RPC 2.0 answers a batch it cannot read and as
   * nodes answer a batch over their limit, or HTTP 413) is sent again in halves (`refused`); a
   * batch whose answer is over its limit is sent again call by call, each with a limit of its own.
   */
  private async send(calls: Call[]): Promise<void> {
    const body = JSON.stringify(
      calls.length === 1
        ? { jsonrpc: '2.0', id: calls[0]!.id, method: calls[0]!.method, params: calls[0]!.params }
        : calls.map((c) => ({ jsonrpc: '2.0', id: c.id, method: c.method, params: c.params })),
    );
    const what = calls.length === 1 ? calls[0]!.method : `a batch of ${calls.length} calls`;
    let answer: unknown;
    try {
      answer = await this.post(body, what, this.maxAnswerBytes * Math.min(calls.length, 8));
    } catch (err) {
      if (calls.length > 1 && err instanceof NodeHttpError && err.status === 413)
        this.refused(calls, err.message);
      else if (calls.length > 1 && err instanceof NodeAnswerTooLarge) this.sendIn(calls, 1);
      else for (const c of calls) c.reject(err);
      return;
    }
    if (calls.length > 1 && !Array.isArray(answer)) {
      this.refused(calls, `the node answered ${what} with ${JSON.stringify(answer).slice(0, 200)}`);
      return;
    }
    settle(calls, answer);
  }

  /**
   * POSTs the body (`what`: its call's method, or the batch, for the errors); the parsed answer of a
   * 2xx status (at most `limit` bytes), else the error.
   */
  private async post(body: string, what: string, limit: number): Promise<unknown> {
    const controller = new AbortController();
    let timedOut = false;
    const timer = setTimeout(() => {
      timedOut = true;
      controller.abort();
    }, this.timeoutMs);
    // Joined by hand, not with AbortSignal.any: on Node 20 a signal joined to a long-lived one
    // stays in its dependants for good (see client.ts).
    const stop = this.signal;
    const onStop = () => controller.abort(stop?.reason);
    stop?.addEventListener('abort', onStop, { once: true });
    try {
      const res = await request(this.url, {
        method: 'POST',
        headers: this.headers,
        body,
        signal: controller.signal,
      });
      const text = (
        await readBody(res.body, limit, (message) => new NodeAnswerTooLarge(message))
      ).toString('utf8');
      if (res.statusCode < 200 || res.statusCode > 299)
        throw new NodeHttpError(
          `the node answered ${what} with HTTP ${res.statusCode}: ${text.slice(0, 200)}`,
          { status: res.statusCode },
        );
      try {
        return JSON.parse(text);
      } catch {
        throw new NodeHttpError(`the node's answer to ${what} is not JSON: ${text.slice(0, 80)}`);
      }
    } catch (err) {
      if (stop?.aborted) throw stop.reason;
      if (timedOut) throw new NodeTimeoutError(what, this.timeoutMs);
      if (err instanceof NodeHttpError) throw err;
      throw new NodeHttpError(`the node could not be asked ${what}: ${(err as Error).message}`, {
        cause: err,
      });
    } finally {
      clearTimeout(timer);
      stop?.removeEventListener('abort', onStop);
    }
  }
}

interface Answer {
  id?: unknown;
  result?: unknown;
  error?: { code?: unknown; message?: unknown; data?: unknown };
}

/**
 * Settles each call from the node's answer: its own answer by id; an error without an id (a node
 * refusing the whole batch) for every call; a call the answer leaves out, or an answer with neither
 * a result nor an error, as not JSON-RPC.
 */
function settle(calls: Call[], answer: unknown): void {
  const answers = (Array.isArray(answer) ? answer : [answer]) as Answer[];
  const byId = new Map<unknown, Answer>();
  let whole: Answer | undefined;
  for (const a of answers) {
    if (typeof a !== 'object' || a === null) continue;
    if (a.id == null && a.error) whole = a;
    else byId.set(a.id, a);
  }
  for (const c of calls) {
    const a = byId.get(c.id) ?? whole;
    if (a?.error && typeof a.error === 'object') c.reject(new NodeRpcError(c.method, a.error));
    else if (a && 'result' in a) c.resolve(a.result);
    else
      c.reject(new NodeHttpError(`the node's answer has no result for ${c.method} (call ${c.id})`));
  }
}
