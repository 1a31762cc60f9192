import net from 'node:net';

/** Below Linux's default ephemeral range (32768–60999), which outgoing connections take from. */
const RANGE = { from: 20_000, to: 32_000 };

function canListen(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const srv = net.createServer();
    srv.once('error', () => resolve(false));
    srv.listen(port, '127.0.0.1', () => srv.close(() => resolve(true)));
  });
}

/**
 * A TCP port free on 127.0.0.1 right now, for a server started next by port number (a node, an
 * appliance whose URL must be known first). Drawn at random below the ephemeral range: a port the
 * kernel hands out for port 0 is also where outgoing connections get their local ports, and one
 * of those can take it between this check and the listen (seen as EADDRINUSE in the tests).
 */
export async function freePort(): Promise<number> {
  for (let i = 0; i < 200; i++) {
    const port = RANGE.from + Math.floor(Math.random() * (RANGE.to - RANGE.from));
    if (await canListen(port)) return port;
  }
  throw new Error(`no free port found in ${RANGE.from}–${RANGE.to}`);
}
