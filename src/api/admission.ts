import type { Context, MiddlewareHandler } from 'hono';
import { whenDeadlinePasses } from './deadline.js';

/**
 * How many requests of a process may be at work at once (config api_max_concurrent_requests);
 * the others wait here, in arrival order, and one past its deadline while waiting leaves the
 * line with its 503 and never runs.
 *
 * Why: a request's statements go to postgres.js, which queues them and pipelines them onto its
 * connections. While the database does not answer (frozen, stalled on disk, a long lock), every
 * request that arrives adds statements there, and its deadline's 503 does not take them back: when
 * the database answered again it first ran the whole backlog, reads whose clients had long
 * gone and writes they had been told might still happen, while new requests waited behind it
 * (measured: 4,000 requests answered 503 during a freeze, 4,154 transactions run after it). With
 * the line, at most `limit` requests' statements are out; a freeze of any length leaves no more
 * than that to run, and the clients that retry are served at once instead of behind their own
 * abandoned requests.
 *
 * The faces that share the API's pool (the API, the operator API, the dashboard, TRP) share one
 * line per process. Health, readiness, metrics and the API reference do not wait in it.
 */
export class Admission {
  private running = 0;
  /** Waiting requests' wake-ups, oldest first (a Set keeps insertion order; removal is O(1)). */
  private readonly waiting = new Set<() => void>();
  private refused = 0;

  constructor(readonly limit: number) {
    if (!Number.isInteger(limit) || limit < 1) throw new RangeError('limit must be ≥ 1');
  }

  /** Requests at work now, and waiting for their turn. */
  get inUse(): number {
    return this.running;
  }
  get queued(): number {
    return this.waiting.size;
  }
  /**
   * Requests whose deadline passed while they waited for their turn: answered 503, never run.
   * Since the process started. (One whose body was still arriving is answered 408, not counted.)
   */
  get expiredWaiting(): number {
    return this.refused;
  }

  /**
   * The middleware: runs the rest of the request when its turn comes. Mount it after the face's
   * requestDeadline, whose 503 takes a waiting request out of the line, and after its body limit.
   *
   * A request's body is received before it takes a place (kept in memory, at most READ_AHEAD
   * bytes; a longer one is passed on as it comes, for the face's limit to refuse): a client that
   * sends its body slowly holds its own connection, not one of the places every request needs.
   */
  readonly middleware: MiddlewareHandler = async (c, next) => {
    let expired = false;
    let started = false;
    let arriving = false;
    /** Takes it out of the line; false when it was no longer waiting (its turn had come). */
    let leave: (() => boolean) | undefined;
    // Until it has a place, a request its deadline answers has not run and never will.
    whenDeadlinePasses(c, () => {
      if (started || (leave && !leave())) return undefined;
      expired = true;
      if (arriving) return 'arriving';
      this.refused++;
      return 'waiting';
    });
    if (announcesBody(c)) {
      arriving = true;
      await receiveBody(c);
      arriving = false;
    }
    if (expired) return;
    if (this.running < this.limit) this.running++;
    else {
      const admitted = await new Promise<boolean>((resolve) => {
        const wake = () => resolve(true);
        this.waiting.add(wake);
        leave = () => {
          if (!this.waiting.delete(wake)) return false;
          resolve(false);
          return true;
        };
      });
      // Answered already (the deadline's 503): nothing of it runs.
      if (!admitted) return;
    }
    started = true;
    try {
      await next();
    } finally {
      this.release();
    }
  };

  /** A request done: its place goes to the oldest waiting one (the count stays), or is freed. */
  private release(): void {
    for (const wake of this.waiting) {
      this.waiting.delete(wake);
      wake();
      return;
    }
    this.running--;
  }
}

/** What a request's body is read ahead to before it waits for a place: the faces' limit, 1 MiB, and one byte. */
const READ_AHEAD = 1024 * 1024 + 1;

/** Whether the request announces a body (HTTP/1.1: Content-Length or Transfer-Encoding). */
export function announcesBody(c: Context): boolean {
  return (
    c.req.header('content-length') !== undefined || c.req.header('transfer-encoding') !== undefined
  );
}

/**
 * Receives the request's body and puts it back as the request's body, the same bytes: whole when
 * it ends within READ_AHEAD bytes, else what was read followed by the rest as it comes (so a
 * face's own limit refuses it as before). A declared length over READ_AHEAD is not read at all.
 */
async function receiveBody(c: Context): Promise<void> {
  const raw = c.req.raw;
  const declared = Number(raw.headers.get('content-length') ?? '');
  if (!raw.body || raw.bodyUsed || (Number.isFinite(declared) && declared > READ_AHEAD)) return;
  const reader = raw.body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  let ended = false;
  while (size < READ_AHEAD) {
    const { done, value } = await reader.read();
    if (done) {
      ended = true;
      break;
    }
    chunks.push(value);
    size += value.byteLength;
  }
  const body = ended
    ? Buffer.concat(chunks)
    : new ReadableStream<Uint8Array>({
        start(controller) {
          for (const chunk of chunks) controller.enqueue(chunk);
        },
        async pull(controller) {
          const { done, value } = await reader.read();
          if (done) controller.close();
          else controller.enqueue(value);
        },
        cancel: (reason) => reader.cancel(reason),
      });
  // As hono's own body limit does: the request, with its body read, in place of the original.
  c.req.raw = new Request(raw, { body, duplex: 'half' } as RequestInit);
}
