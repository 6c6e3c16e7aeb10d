import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import type { JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js';

/** The SDK's stdio transport, counting what goes through it (for the stats tool) and tracing it to stderr when asked. */
export class CountingStdioTransport implements Transport {
  private readonly inner = new StdioServerTransport();
  received = 0;
  sent = 0;
  onclose?: () => void;
  onerror?: (error: Error) => void;
  onmessage?: (message: JSONRPCMessage) => void;

  async start(): Promise<void> {
    this.inner.onmessage = message => {
      this.received++;
      if (process.env.TRACE_MCP) console.error('<-', JSON.stringify(message));
      this.onmessage?.(message);
    };
    this.inner.onclose = () => this.onclose?.();
    this.inner.onerror = error => this.onerror?.(error);
    await this.inner.start();
  }

  send(message: JSONRPCMessage): Promise<void> {
    this.sent++;
    if (process.env.TRACE_MCP) console.error('->', JSON.stringify(message));
    return this.inner.send(message);
  }

  close(): Promise<void> {
    return this.inner.close();
  }
}
