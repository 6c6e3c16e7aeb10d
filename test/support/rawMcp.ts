/**
 * A raw JSON-RPC client for the 2026-07-28 era over a server's stdio, for tests that must send what
 * no well-behaved SDK client would (tampered requestState, forged inputResponses). It speaks the wire
 * the SDK 2.x client speaks: `server/discover` first, then every request carrying the per-request
 * `_meta` envelope (`io.modelcontextprotocol/protocolVersion`, `clientInfo`, `clientCapabilities`);
 * a retry is the original `tools/call` params plus `inputResponses` and the echoed `requestState`.
 */
import { ChildProcessTransport, type WireMessage } from '../../src/verify/transport.js';
import { CLIENT_CAPABILITIES, MODERN_PROTOCOL_VERSION } from '../../src/verify/run.js';

export const CLIENT_INFO = { name: 'mcp-migrate-raw', version: '0.0.0' };

export function envelope(): Record<string, unknown> {
  return {
    'io.modelcontextprotocol/protocolVersion': MODERN_PROTOCOL_VERSION,
    'io.modelcontextprotocol/clientInfo': CLIENT_INFO,
    'io.modelcontextprotocol/clientCapabilities': CLIENT_CAPABILITIES,
  };
}

export interface RpcReply {
  id: number;
  result?: Record<string, unknown>;
  error?: { code: number; message: string; data?: unknown };
}

export class RawModernClient {
  readonly transport: ChildProcessTransport;
  /** Server-initiated requests seen (there must be none on this era). */
  readonly serverRequests: WireMessage[] = [];
  readonly garbage: string[] = [];
  private nextId = 1;
  private readonly pending = new Map<number, (reply: RpcReply) => void>();
  private exited = false;

  constructor(command: string, env: Record<string, string | undefined>, cwd?: string) {
    this.transport = new ChildProcessTransport({ command, env, cwd });
    this.transport.onmessage = (message: never) => {
      const m = message as WireMessage;
      if (typeof m.method === 'string') {
        if (m.id !== undefined) this.serverRequests.push(m);
        return;
      }
      const resolve = this.pending.get(m.id as number);
      if (resolve) {
        this.pending.delete(m.id as number);
        resolve(m as unknown as RpcReply);
      }
    };
    this.transport.onGarbage = line => this.garbage.push(line);
    this.transport.onclose = () => {
      this.exited = true;
      for (const [id, resolve] of this.pending) resolve({ id, error: { code: NaN, message: 'connection closed' } });
      this.pending.clear();
    };
  }

  /** Starts the server and runs `server/discover`; returns its result. */
  async connect(timeoutMs = 180_000): Promise<Record<string, unknown>> {
    await this.transport.start();
    const reply = await this.request('server/discover', {}, timeoutMs);
    if (reply.error) throw new Error(`server/discover failed: ${JSON.stringify(reply.error)}\n${this.transport.stderr}`);
    return reply.result!;
  }

  /** Sends one request (the `_meta` envelope merged into `params._meta`) and waits for its reply. */
  request(method: string, params: Record<string, unknown>, timeoutMs = 180_000): Promise<RpcReply> {
    const id = this.nextId++;
    const meta = { ...envelope(), ...((params._meta as Record<string, unknown> | undefined) ?? {}) };
    return new Promise<RpcReply>((resolve, reject) => {
      if (this.exited) {
        resolve({ id, error: { code: NaN, message: 'connection closed' } });
        return;
      }
      const timer = setTimeout(() => {
        this.pending.delete(id);
        reject(new Error(`${method} #${id}: no reply within ${timeoutMs} ms\n${this.transport.stderr}`));
      }, timeoutMs);
      this.pending.set(id, reply => {
        clearTimeout(timer);
        resolve(reply);
      });
      this.transport.send({ jsonrpc: '2.0', id, method, params: { ...params, _meta: meta } }).catch(error => {
        clearTimeout(timer);
        this.pending.delete(id);
        reject(error);
      });
    });
  }

  /** `tools/call`; `retry` adds the multi-round-trip fields exactly as the SDK client's retry does. */
  callTool(
    name: string,
    args: Record<string, unknown>,
    retry?: { inputResponses?: Record<string, unknown>; requestState?: unknown },
  ): Promise<RpcReply> {
    return this.request('tools/call', {
      name,
      arguments: args,
      ...(retry?.inputResponses !== undefined ? { inputResponses: retry.inputResponses } : {}),
      ...(retry?.requestState !== undefined ? { requestState: retry.requestState } : {}),
    });
  }

  /** True while the server process has not exited. */
  get alive(): boolean {
    return !this.exited && this.transport.exit === undefined;
  }

  get pid(): number | undefined {
    return this.transport.pid;
  }

  close(): Promise<void> {
    return this.transport.close();
  }
}
