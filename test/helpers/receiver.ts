import { createServer, type RequestListener, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface Received {
  headers: Record<string, string>;
  body: string;
  json: any;
  at: number;
}

/**
 * A real HTTP webhook receiver on loopback. `respond` decides each status (200 by default), and
 * the answer's body if it returns one; `waitFor` resolves when the received requests satisfy a
 * predicate.
 */
export class Receiver {
  readonly received: Received[] = [];
  respond: (
    r: Received,
    index: number,
  ) => number | { status: number; body: string; headers?: Record<string, string> } = () => 200;
  private server: Server | undefined;
  private waiters: (() => void)[] = [];
  url = '';

  async start(): Promise<this> {
    this.server = createServer((req, res) => {
      let body = '';
      req.on('data', (d) => (body += d));
      req.on('end', () => {
        let json: unknown;
        try {
          json = JSON.parse(body);
        } catch {
          json = undefined;
        }
        const r: Received = {
          headers: req.headers as Record<string, string>,
          body,
          json,
          at: Date.now(),
        };
        this.received.push(r);
        const answer = this.respond(r, this.received.length - 1);
        if (typeof answer === 'number') res.writeHead(answer).end();
        else
          res
            .writeHead(answer.status, { 'content-type': 'text/plain', ...answer.headers })
            .end(answer.body);
        for (const w of this.waiters) w();
      });
    });
    await new Promise<void>((resolve) => this.server!.listen(0, '127.0.0.1', resolve));
    this.url = `http://127.0.0.1:${(this.server.address() as AddressInfo).port}/hook`;
    return this;
  }

  async waitFor(predicate: (all: Received[]) => boolean, timeoutMs = 30_000): Promise<Received[]> {
    const deadline = Date.now() + timeoutMs;
    while (!predicate(this.received)) {
      if (Date.now() > deadline)
        throw new Error(
          `receiver: condition not met within ${timeoutMs} ms (${this.received.length} received)`,
        );
      await new Promise<void>((resolve) => {
        const t = setTimeout(resolve, 250);
        this.waiters.push(() => {
          clearTimeout(t);
          resolve();
        });
      });
      this.waiters = [];
    }
    return this.received;
  }

  async stop(): Promise<void> {
    await new Promise<void>((resolve) => this.server?.close(() => resolve()) ?? resolve());
  }
}

/**
 * Loopback receivers whose every answer (or silence, or hang-up) a test writes itself. `close`
 * cuts their open connections, so a receiver that never answers does not hold the run open.
 */
export class RawReceivers {
  private readonly servers: Server[] = [];

  /** Starts one; resolves to its webhook URL. */
  async listen(handler: RequestListener): Promise<string> {
    const server = createServer(handler);
    this.servers.push(server);
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    return `http://127.0.0.1:${(server.address() as AddressInfo).port}/hook`;
  }

  close(): void {
    for (const s of this.servers.splice(0)) {
      s.closeAllConnections();
      s.close();
    }
  }
}
