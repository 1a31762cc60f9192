import { connect, createServer, type AddressInfo, type Socket } from 'node:net';

export interface TcpRelay {
  /** The port it listens on, on 127.0.0.1. */
  port: number;
  /** Connections open now (both sides of each counted). */
  connections(): number;
  /** Cuts every open connection, as a network fault would; new ones are still relayed. */
  cut(): void;
  /**
   * Passes nothing on, either way, until thaw: as a frozen server (SIGSTOP, a paused VM) looks
   * from outside. Connections stay open; new ones are taken and wait.
   */
  freeze(): void;
  thaw(): void;
  close(): Promise<void>;
}

/**
 * A TCP relay on 127.0.0.1 (at `port`, or a free one) to a node's host and port: whatever
 * protocol goes over it (HTTP, WebSocket) is passed on unread, and its connections can be cut.
 */
export async function startTcpRelay(target: URL, port = 0): Promise<TcpRelay> {
  const open = new Set<Socket>();
  const pairs = new Set<[Socket, Socket]>();
  let frozen = false;
  const waiting: (() => void)[] = [];
  const relay = (client: Socket) => {
    const upstream = connect(Number(target.port), target.hostname);
    for (const s of [client, upstream]) {
      open.add(s);
      s.on('error', () => {});
      s.on('close', () => open.delete(s));
    }
    const pair: [Socket, Socket] = [client, upstream];
    pairs.add(pair);
    client.on('close', () => pairs.delete(pair));
    client.pipe(upstream).pipe(client);
  };
  const server = createServer((client) => {
    if (!frozen) return relay(client);
    client.pause();
    waiting.push(() => relay(client));
  });
  await new Promise<void>((r) => server.listen(port, '127.0.0.1', r));
  return {
    port: (server.address() as AddressInfo).port,
    connections: () => open.size,
    cut: () => {
      for (const s of open) s.destroy();
    },
    freeze: () => {
      frozen = true;
      for (const [client, upstream] of pairs) {
        client.unpipe(upstream);
        upstream.unpipe(client);
        client.pause();
        upstream.pause();
      }
    },
    thaw: () => {
      frozen = false;
      for (const [client, upstream] of pairs) {
        client.pipe(upstream);
        upstream.pipe(client);
      }
      for (const start of waiting.splice(0)) start();
    },
    close: async () => {
      for (const s of open) s.destroy();
      await new Promise((r) => server.close(r));
    },
  };
}
