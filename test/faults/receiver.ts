import { createServer, type Server } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';

export interface Delivery {
  headers: Record<string, string>;
  body: string;
  json: any;
}

/**
 * A webhook receiver that faults can be done to: it can answer slowly (`delayMs` per request),
 * and be taken down (connections refused, open ones cut) and brought back on the same port.
 * A request counts as received once its body is read, whether or not the answer gets back.
 */
export class FaultReceiver {
  readonly received: Delivery[] = [];
  /** Milliseconds to wait before answering each request. */
  delayMs: () => number = () => 0;
  private server: Server | undefined;
  private sockets = new Set<Socket>();
  private port = 0;
  private arrivals: (() => void)[] = [];

  /** The URL streams are created with (the same across stop and start). */
  get url(): string {
    return `http://127.0.0.1:${this.port}/hook`;
  }

  async start(): Promise<this> {
    const server = createServer((req, res) => {
      let body = '';
      req.setEncoding('utf8');
      req.on('data', (d: string) => (body += d));
      req.on('end', () => {
        let json: unknown;
        try {
          json = JSON.parse(body);
        } catch {
          json = undefined;
        }
        this.received.push({ headers: req.headers as Record<string, string>, body, json });
        for (const w of this.arrivals.splice(0)) w();
        const delay = this.delayMs();
        const answer = () => {
          if (!res.destroyed) res.writeHead(200).end();
        };
        if (delay > 0) setTimeout(answer, delay);
        else answer();
      });
    });
    server.on('connection', (s) => {
      this.sockets.add(s);
      s.on('close', () => this.sockets.delete(s));
    });
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(this.port, '127.0.0.1', () => resolve());
    });
    this.port = (server.address() as AddressInfo).port;
    this.server = server;
    return this;
  }

  /** Resolves when the next request has arrived (its answer is still to come), or after `timeoutMs`. */
  nextRequest(timeoutMs: number): Promise<boolean> {
    return new Promise((resolve) => {
      const t = setTimeout(() => resolve(false), timeoutMs);
      this.arrivals.push(() => {
        clearTimeout(t);
        resolve(true);
      });
    });
  }

  /** Down: new connections are refused and open ones are cut. */
  async stop(): Promise<void> {
    const server = this.server;
    this.server = undefined;
    if (!server) return;
    const closed = new Promise<void>((resolve) => server.close(() => resolve()));
    for (const s of this.sockets) s.destroy();
    await closed;
  }
}
