import WebSocket from 'ws';

/**
 * New heads pushed by a ws(s):// node (`eth_subscribe("newHeads")`), on a connection of their
 * own. Sharing the requests' connection delays a push: a node that does not set TCP_NODELAY on
 * its sockets (anvil, measured) holds the small notification while an
 * earlier answer on that connection waits for its acknowledgement, which the receiving kernel
 * may delay by up to about 40 ms; measured on anvil with the indexer's own polling on the same
 * connection, the push arrived 33 ms (median) after the block. A connection that carries
 * nothing else has no answer outstanding when a head comes.
 *
 * The connection is kept up: a close or a missed pong reconnects after a delay (doubling from 1
 * to 30 s) and subscribes again. Failures go to `onError` (messages without the URL, which may
 * carry credentials); a node that refuses the subscription is reported once and left alone.
 */

const RECONNECT_MIN_MS = 1_000;
const RECONNECT_MAX_MS = 30_000;
/** A connection that answers no ping within this long is dropped and opened again. */
const PING_INTERVAL_MS = 30_000;
const HANDSHAKE_TIMEOUT_MS = 10_000;
/** A newHeads notification is a block header: far below this. */
const MAX_MESSAGE_BYTES = 1 << 20;

export interface HeadsHandlers {
  onHead(number: bigint): void;
  onError(error: Error): void;
  /** The node took the subscription (again, after a reconnect). */
  onSubscribed?(): void;
}

interface RpcMessage {
  id?: unknown;
  method?: string;
  result?: unknown;
  error?: { code?: number; message?: string };
  params?: { subscription?: string; result?: { number?: string } };
}

export function watchNewHeads(url: string, handlers: HeadsHandlers): () => void {
  let socket: WebSocket | undefined;
  let stopped = false;
  let refused = false;
  let delay = RECONNECT_MIN_MS;
  let retry: NodeJS.Timeout | undefined;
  let ping: NodeJS.Timeout | undefined;

  const report = (message: string) => handlers.onError(new Error(message));

  const connect = () => {
    const ws = new WebSocket(url, {
      handshakeTimeout: HANDSHAKE_TIMEOUT_MS,
      maxPayload: MAX_MESSAGE_BYTES,
    });
    socket = ws;
    let alive = true;
    let subscription: string | undefined;
    ws.on('open', () => {
      ws.send(
        JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'eth_subscribe', params: ['newHeads'] }),
      );
      ping = setInterval(() => {
        if (!alive) return ws.terminate();
        alive = false;
        ws.ping();
      }, PING_INTERVAL_MS).unref();
    });
    ws.on('pong', () => {
      alive = true;
    });
    ws.on('message', (data) => {
      let m: RpcMessage;
      try {
        m = JSON.parse(data.toString()) as RpcMessage;
      } catch {
        return report('newHeads: the node sent a message that is not JSON');
      }
      if (m.id === 1) {
        if (m.error || typeof m.result !== 'string') {
          refused = true;
          report(
            `newHeads: the node refused eth_subscribe: ${m.error?.message ?? 'no subscription id'}`,
          );
          ws.close();
          return;
        }
        subscription = m.result;
        delay = RECONNECT_MIN_MS;
        handlers.onSubscribed?.();
        return;
      }
      if (m.method !== 'eth_subscription' || m.params?.subscription !== subscription) return;
      const n = m.params?.result?.number;
      if (typeof n === 'string' && /^0x[0-9a-f]+$/i.test(n)) handlers.onHead(BigInt(n));
    });
    ws.on('error', (err) => report(`newHeads connection: ${err.message}`));
    ws.on('close', () => {
      clearInterval(ping);
      if (stopped || refused) return;
      retry = setTimeout(connect, delay).unref();
      delay = Math.min(delay * 2, RECONNECT_MAX_MS);
    });
  };

  connect();
  return () => {
    stopped = true;
    clearTimeout(retry);
    clearInterval(ping);
    socket?.removeAllListeners('message');
    socket?.on('error', () => {});
    socket?.terminate();
  };
}
