/**
 * Servers on Streamable HTTP: the command is started with `PORT` set to a free loopback port, and
 * the era's own SDK HTTP client transport connects to it once the port accepts connections. The
 * runner sees every message through a tap around that transport.
 */
import net from 'node:net';
import type { WireMessage } from './transport.js';

/** A loopback port nothing listens on right now. */
export async function freeLoopbackPort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = net.createServer();
    probe.once('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const { port } = probe.address() as net.AddressInfo;
      probe.close(() => resolve(port));
    });
  });
}

/** Resolves once the port accepts a connection; rejects when `gone()` says the server ended, or at the deadline. */
export async function waitForPort(port: number, timeoutMs: number, gone: () => string | undefined): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const ended = gone();
    if (ended) throw new Error(`${ended} before listening on 127.0.0.1:${port}`);
    const open = await new Promise<boolean>(resolve => {
      const socket = net.connect(port, '127.0.0.1', () => {
        socket.end();
        resolve(true);
      });
      socket.once('error', () => resolve(false));
    });
    if (open) return;
    if (Date.now() > deadline)
      throw new Error(`the server did not listen on 127.0.0.1:${port} within ${timeoutMs} ms (is it reading PORT?)`);
    await new Promise(resolve => setTimeout(resolve, 50));
  }
}

/**
 * The transport as it is, but every message sent goes to `onClient` first and every message
 * received to `onServer` first. A proxy, so whatever else the SDK client reads or calls on its
 * transport (protocol version, session id, header mirroring) is the real transport's.
 */
export function tapTransport<T extends object>(
  inner: T,
  onClient: (message: WireMessage) => void,
  onServer: (message: WireMessage) => void,
): T {
  const target = inner as Record<string | symbol, unknown>;
  return new Proxy(inner, {
    get(_, prop) {
      if (prop === 'send') {
        return (message: WireMessage, options?: unknown) => {
          onClient(message);
          return (target.send as (m: unknown, o?: unknown) => Promise<void>).call(inner, message, options);
        };
      }
      const value = target[prop];
      return typeof value === 'function' ? value.bind(inner) : value;
    },
    set(_, prop, value) {
      if (prop === 'onmessage' && typeof value === 'function') {
        target.onmessage = (message: WireMessage, extra?: unknown) => {
          onServer(message);
          return (value as (m: unknown, e?: unknown) => void)(message, extra);
        };
      } else {
        target[prop] = value;
      }
      return true;
    },
  });
}
