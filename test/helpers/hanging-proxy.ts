import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * A JSON-RPC proxy to a node that, once told to, holds every request without answering. A
 * client's Authorization header is passed on (a Bitcoin-family node wants one); `url` is the
 * proxy's, with the target's credentials in it.
 */
export async function startHangingProxy(nodeUrl: string) {
  const node = new URL(nodeUrl);
  const target = `${node.protocol}//${node.host}${node.pathname}`;
  let hanging = false;
  const held = new Set<IncomingMessage>();
  const abandoned: IncomingMessage[] = [];
  let requests = 0;
  const server = createServer((req: IncomingMessage, res: ServerResponse) => {
    let body = '';
    req.setEncoding('utf8');
    req.on('data', (d: string) => (body += d));
    req.on('end', async () => {
      requests++;
      if (hanging) {
        held.add(req);
        // The client gave the request up: the only way a held one ends before the proxy closes.
        res.on('close', () => {
          if (held.delete(req)) abandoned.push(req);
        });
        return;
      }
      try {
        const answer = await fetch(target, {
          method: 'POST',
          headers: {
            'content-type': 'application/json',
            ...(req.headers.authorization ? { authorization: req.headers.authorization } : {}),
          },
          body,
        });
        res.writeHead(200, { 'content-type': 'application/json' }).end(await answer.text());
      } catch {
        res.writeHead(502).end();
      }
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const proxied = new URL(nodeUrl);
  proxied.host = `127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    url: proxied.toString().replace(/\/$/, ''),
    held,
    abandoned,
    requests: () => requests,
    hang: (on: boolean) => {
      hanging = on;
    },
    close: async () => {
      held.clear();
      server.closeAllConnections();
      await new Promise((r) => server.close(r));
    },
  };
}
