import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import type { Rng } from './seed.js';

export type RpcFault = 'http_500' | 'rpc_error' | 'timeout';

export interface FaultyRpcProxy {
  url: string;
  /** Requests seen and faults injected, by kind. */
  stats: { requests: number; faults: Record<RpcFault, number> };
  stop(): Promise<void>;
}

/** JSON-RPC error codes a node or a provider answers with when it is struggling. */
const RPC_ERRORS = [
  { code: -32603, message: 'Internal error (injected fault)' },
  { code: -32000, message: 'header not found (injected fault)' },
  { code: -32005, message: 'limit exceeded (injected fault)' },
];

/**
 * An HTTP proxy in front of a JSON-RPC node that, drawing from `rng`, answers `rate` of the
 * requests with a fault: an HTTP 500, a JSON-RPC error (for a batch: one of its calls, the rest
 * answered by the node), or no answer for `hangMs` (past the client's timeout), then a cut
 * connection. Everything else is passed to the node as it is.
 */
export async function startFaultyRpcProxy(
  target: string,
  rng: Rng,
  opts: { rate: number; hangMs: number },
): Promise<FaultyRpcProxy> {
  const stats = {
    requests: 0,
    faults: { http_500: 0, rpc_error: 0, timeout: 0 } as Record<RpcFault, number>,
  };
  const sockets = new Set<Socket>();
  const timers = new Set<NodeJS.Timeout>();

  // A node that wants credentials (Bitcoin-family) gets the client's own Authorization header.
  const forward = async (body: string, authorization?: string): Promise<string> => {
    const res = await fetch(target, {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...(authorization ? { authorization } : {}) },
      body,
    });
    return res.text();
  };

  const handle = async (req: IncomingMessage, res: ServerResponse, body: string) => {
    stats.requests++;
    const fault: RpcFault | undefined = rng.chance(opts.rate)
      ? rng.pick(['http_500', 'rpc_error', 'timeout'] as const)
      : undefined;
    if (fault) stats.faults[fault]++;
    if (fault === 'http_500')
      return void res.writeHead(500, { 'content-type': 'text/plain' }).end('injected fault');
    if (fault === 'timeout') {
      const t = setTimeout(() => {
        timers.delete(t);
        req.socket.destroy();
      }, opts.hangMs);
      timers.add(t);
      return;
    }
    if (fault === 'rpc_error') {
      const error = rng.pick(RPC_ERRORS);
      const parsed = JSON.parse(body) as { id: unknown } | { id: unknown }[];
      if (!Array.isArray(parsed))
        return void res
          .writeHead(200, { 'content-type': 'application/json' })
          .end(JSON.stringify({ jsonrpc: '2.0', id: parsed.id, error }));
      const victim = rng.int(0, parsed.length - 1);
      const answers = JSON.parse(await forward(body, req.headers.authorization)) as {
        id: unknown;
      }[];
      const out = answers.map((a) =>
        a.id === parsed[victim]!.id ? { jsonrpc: '2.0', id: a.id, error } : a,
      );
      return void res
        .writeHead(200, { 'content-type': 'application/json' })
        .end(JSON.stringify(out));
    }
    const answer = await forward(body, req.headers.authorization);
    res.writeHead(200, { 'content-type': 'application/json' }).end(answer);
  };

  const server = createServer((req, res) => {
    let body = '';
    req.setEncoding('utf8');
    req.on('data', (d: string) => (body += d));
    req.on('end', () => {
      handle(req, res, body).catch(() => {
        if (!res.headersSent) res.writeHead(502).end();
      });
    });
  });
  server.on('connection', (s) => {
    sockets.add(s);
    s.on('close', () => sockets.delete(s));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    stats,
    stop: async () => {
      for (const t of timers) clearTimeout(t);
      const closed = new Promise<void>((resolve) => server.close(() => resolve()));
      for (const s of sockets) s.destroy();
      await closed;
    },
  };
}
