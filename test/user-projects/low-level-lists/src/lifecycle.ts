import type { Server } from '@modelcontextprotocol/sdk/server/index.js';

let userAgent = 'unknown';

/** Remembers which client connected, once the handshake is done (for support requests and the logs). */
export function trackClient(server: Server): void {
  server.oninitialized = () => {
    const v = server.getClientVersion();
    userAgent = `${v?.name}/${v?.version}`;
    console.error(`[low-level-lists] client ${userAgent} initialized`);
  };
}

export function currentUserAgent(): string {
  return userAgent;
}
