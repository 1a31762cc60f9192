import { connect, createServer, type AddressInfo, type Socket } from 'node:net';

export interface TcpRelay {
  /** The port it listens on, on 127.0.0.1. */
  port: number;
  /** Connections open now (both sides of each counted). */
  connections(): number;
  /** Cuts every open connection, as a network fault would; new ones are still relayed. */
  cut(): void;
  close(): Promise<void>;
}

/**
 * A TCP relay on 127.0.0.1 (at `port`, or a free one) to a node's host and port: whatever
 * protocol goes over it (HTTP, WebSocket) is passed on unread, and its connections can be cut.
 */
export async function startTcpRelay(target: URL, port = 0): Promise<TcpRelay> {
  const open = new Set<Socket>();
  const server = createServer((client) => {
    const upstream = connect(Number(target.port), target.hostname);
    for (const s of [client, upstream]) {
      open.add(s);
      s.on('error', () => {});
      s.on('close', () => open.delete(s));
    }
    client.pipe(upstream).pipe(client);
  });
  await new Promise<void>((r) => server.listen(port, '127.0.0.1', r));
  return {
    port: (server.address() as AddressInfo).port,
    connections: () => open.size,
    cut: () => {
      for (const s of open) s.destroy();
    },
    close: async () => {
      for (const s of open) s.destroy();
      await new Promise((r) => server.close(r));
    },
  };
}
