import { createServer as httpServer, type Server } from 'node:http';
import { type AddressInfo, createServer as tcpServer, type Server as TcpServer } from 'node:net';
import { createPublicClient, http } from 'viem';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { describeError } from '../src/errors.js';

/**
 * What the logs and /readyz say of a node that fails, for each way it can fail, through viem's
 * HTTP transport as the indexer asks for the head: each reads differently (a node dropping
 * connections and one refusing them read alike, "fetch failed"; found by an outside probe), and
 * none carries the URL's path, where providers keep their API key.
 */

const servers: (Server | TcpServer)[] = [];
const listen = async <S extends Server | TcpServer>(server: S): Promise<number> => {
  servers.push(server);
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return (server.address() as AddressInfo).port;
};
let ports: Record<'garbage' | 'dropping' | 'gateway' | 'refusing', number>;

beforeAll(async () => {
  const closed = tcpServer();
  const refusing = await listen(closed);
  await new Promise((r) => closed.close(r));
  servers.pop();
  ports = {
    garbage: await listen(
      httpServer((_, res) => {
        res.writeHead(200, { 'content-type': 'text/plain' });
        res.end('<html>maintenance</html>');
      }),
    ),
    dropping: await listen(tcpServer((socket) => socket.destroy())),
    gateway: await listen(
      httpServer((_, res) => {
        res.writeHead(502, { 'content-type': 'text/html' });
        res.end('<html>bad gateway</html>');
      }),
    ),
    refusing,
  };
});
afterAll(async () => {
  for (const s of servers) await new Promise((r) => s.close(r));
});

it('tells a node answering garbage, an error status, dropping and refusing connections apart', async () => {
  const said: Record<string, string> = {};
  for (const [name, port] of Object.entries(ports)) {
    const client = createPublicClient({
      transport: http(`http://127.0.0.1:${port}/v3/key-in-path-7f3a`, { retryCount: 0 }),
    });
    said[name] = await client.getBlockNumber().then(
      () => 'answered',
      (err) => describeError(err),
    );
  }
  expect(said.garbage).toMatch(/HTTP request failed\. \(.*not valid JSON\)/);
  expect(said.gateway).toBe(
    'HttpRequestError: HTTP request failed. (HTTP 502: "<html>bad gateway</html>")',
  );
  expect(said.dropping).toMatch(/\(fetch failed: other side closed \(UND_ERR_SOCKET\)\)$/);
  expect(said.refusing).toMatch(
    /\(fetch failed: connect ECONNREFUSED 127\.0\.0\.1:\d+ \(ECONNREFUSED\)\)$/,
  );
  expect(new Set(Object.values(said)).size).toBe(4);
  for (const text of Object.values(said)) expect(text).not.toContain('key-in-path');
});
