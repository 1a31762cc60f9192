/** The part of autocannon's programmatic API the benchmarks use (it ships no types). */
declare module 'autocannon' {
  interface Options {
    url: string;
    connections?: number;
    duration?: number;
    headers?: Record<string, string>;
    /** Requests in turn; setupRequest changes each one before it is sent (its path, say). */
    requests?: { setupRequest?: (req: Request) => Request }[];
  }
  interface Request {
    path: string;
    method?: string;
    headers?: Record<string, string>;
    body?: string;
  }
  interface Histogram {
    average: number;
    p50: number;
    p99: number;
  }
  export interface Result {
    requests: Histogram;
    latency: Histogram;
    non2xx: number;
    errors: number;
    timeouts: number;
  }
  /** With a callback: the running instance, whose events report each answer and each error. */
  export interface Instance {
    on(
      event: 'response',
      listener: (
        client: unknown,
        statusCode: number,
        resBytes: number,
        responseTime: number,
      ) => void,
    ): Instance;
    on(event: 'reqError', listener: (err: Error & { code?: string }) => void): Instance;
  }
  function autocannon(opts: Options): Promise<Result>;
  function autocannon(opts: Options, done: (err: Error | null, result: Result) => void): Instance;
  export default autocannon;
}
