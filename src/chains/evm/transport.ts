/**
 * True when a viem error (or any error in its cause chain) is a transport failure (HTTP, timeout,
 * WebSocket): the node could not be asked, so a retry can help and nothing may be cached from it.
 */
export function isTransportError(err: unknown): boolean {
  for (let e = err as { name?: string; cause?: unknown } | undefined; e; e = e.cause as typeof e) {
    if (
      e.name === 'HttpRequestError' ||
      e.name === 'TimeoutError' ||
      e.name === 'WebSocketRequestError' ||
      e.name === 'SocketClosedError'
    )
      return true;
  }
  return false;
}
