import { createServer, type AddressInfo, type Socket } from 'node:net';
import { SMTPServer } from 'smtp-server';

/** What a login relay took: each login (over TLS or not) and each mail. */
export interface LoginRelay {
  port: number;
  logins: { user: string; secure: boolean }[];
  mails: { secure: boolean; raw: string }[];
  close(): Promise<void>;
}

/**
 * A real SMTP relay (smtp-server on 127.0.0.1) that takes a login; with `cert`, STARTTLS too.
 * It would take a password in plain text when asked to (a client must not ask). With `login`,
 * only that user and password: any other is refused with a reply that repeats what was sent, as
 * some relays do.
 */
export async function loginRelay(
  cert?: { cert: string; key: string },
  login?: { user: string; password: string },
): Promise<LoginRelay> {
  const logins: LoginRelay['logins'] = [];
  const mails: LoginRelay['mails'] = [];
  const relay = new SMTPServer({
    secure: false,
    ...(cert ? { key: cert.key, cert: cert.cert } : { disabledCommands: ['STARTTLS'] }),
    allowInsecureAuth: true,
    logger: false,
    closeTimeout: 1000,
    onAuth(auth, session, callback) {
      logins.push({ user: auth.username ?? '', secure: session.secure });
      if (login && (auth.username !== login.user || auth.password !== login.password))
        return callback(new Error(`no login ${auth.username} with password ${auth.password}`));
      callback(null, { user: auth.username });
    },
    onData(stream, session, callback) {
      const chunks: Buffer[] = [];
      stream.on('data', (c: Buffer) => chunks.push(c));
      stream.on('end', () => {
        mails.push({ secure: session.secure, raw: Buffer.concat(chunks).toString('utf8') });
        callback();
      });
    },
  });
  await new Promise<void>((r) => relay.listen(0, '127.0.0.1', r));
  return {
    port: (relay.server.address() as AddressInfo).port,
    logins,
    mails,
    close: () => new Promise<void>((r) => relay.close(() => r())),
  };
}

/**
 * An SMTP relay written from RFC 5321 (plain text, no extensions but 8BITMIME) that loses the
 * connection at one stage of a mail, as a network or a relay crash would: at `RCPT` (before any
 * of the mail went out), or `end-of-data` (after the whole message and its final dot arrived,
 * before the relay's reply: the relay may have taken it). `seen` lists the commands it got, and
 * `<data>` for each whole message.
 */
export async function cuttingRelay(cutAt: 'RCPT' | 'end-of-data') {
  const seen: string[] = [];
  const sockets = new Set<Socket>();
  const server = createServer((socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
    socket.on('error', () => {});
    socket.setEncoding('latin1');
    socket.write('220 cutter.test ESMTP\r\n');
    let buffer = '';
    let inData = false;
    socket.on('data', (chunk: string) => {
      buffer += chunk;
      if (inData) {
        if (!buffer.includes('\r\n.\r\n')) return;
        seen.push('<data>');
        return void socket.destroy(); // the reply to the data never leaves
      }
      for (let end = buffer.indexOf('\r\n'); end >= 0; end = buffer.indexOf('\r\n')) {
        const line = buffer.slice(0, end);
        buffer = buffer.slice(end + 2);
        const verb = line.slice(0, 4).toUpperCase();
        seen.push(verb);
        if (verb === 'EHLO') socket.write('250-cutter.test\r\n250 8BITMIME\r\n');
        else if (verb === 'HELO' || verb === 'RSET' || verb === 'NOOP') socket.write('250 OK\r\n');
        else if (verb === 'MAIL') socket.write('250 2.1.0 OK\r\n');
        else if (verb === 'RCPT') {
          if (cutAt === 'RCPT') return void socket.destroy();
          socket.write('250 2.1.5 OK\r\n');
        } else if (verb === 'DATA') {
          inData = true;
          return void socket.write('354 End data with <CR><LF>.<CR><LF>\r\n');
        } else if (verb === 'QUIT') return void socket.end('221 2.0.0 Bye\r\n');
        else socket.write('502 5.5.2 Command not implemented\r\n');
      }
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return {
    url: `smtp://127.0.0.1:${(server.address() as AddressInfo).port}`,
    seen,
    close: async () => {
      for (const s of sockets) s.destroy();
      await new Promise((r) => server.close(r));
    },
  };
}
