/** Maps items with at most `limit` calls in flight; results keep the items' order. */
export async function mapWithConcurrency<T, R>(
  items: readonly T[],
  limit: number,
  fn: (item: T, index: number) => Promise<R>,
): Promise<R[]> {
  const results = new Array<R>(items.length);
  let next = 0;
  const worker = async () => {
    while (next < items.length) {
      const i = next++;
      results[i] = await fn(items[i]!, i);
    }
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, worker));
  return results;
}

/**
 * Resolves or rejects as `work`, or rejects with `timeoutError()` once `ms` have passed without
 * its answer (`work` itself runs on; its later outcome is ignored).
 */
export function within<T>(
  work: Promise<T>,
  ms: number,
  timeoutError: () => Error = () => new Error(`no answer within ${ms} ms`),
): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(timeoutError()), ms);
  });
  return Promise.race([work, late]).finally(() => clearTimeout(timer));
}

/**
 * At most `size` calls in flight, the others waiting in the order they came: a limit shared by
 * several batches of work, so that the next batch's calls fill the slots the last one's leave.
 */
export class Slots {
  private free: number;
  private readonly waiting: (() => void)[] = [];

  constructor(size: number) {
    this.free = size;
  }

  async run<T>(fn: () => Promise<T>): Promise<T> {
    if (this.free > 0) this.free--;
    else await new Promise<void>((resolve) => this.waiting.push(resolve));
    try {
      return await fn();
    } finally {
      const next = this.waiting.shift();
      if (next) next();
      else this.free++;
    }
  }
}
