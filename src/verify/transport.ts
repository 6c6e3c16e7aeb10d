/**
 * A client-side stdio transport over a child process started from a shell command line, which lets the
 * runner see every JSON-RPC message in both directions. It satisfies the `Transport` shape of both SDK
 * generations (1.x `@modelcontextprotocol/sdk` and 2.x `@modelcontextprotocol/client`), which agree on
 * `start` / `send` / `close` / `onmessage` / `onerror` / `onclose`.
 *
 * Wire format: newline-delimited JSON on stdin/stdout, as the MCP stdio transport defines it.
 */
import { spawn, type ChildProcess } from 'node:child_process';

/** A JSON-RPC message as it appears on the wire; the runner only inspects `id`, `method`, `result`, `error`. */
export type WireMessage = Record<string, unknown>;

export interface ChildTransportOptions {
  command: string;
  cwd?: string;
  /** Added to (and overriding) the parent's environment. */
  env?: Record<string, string | undefined>;
  /** Keep at most this many characters of the child's stderr (the tail). Default 16 000. */
  stderrLimit?: number;
  /**
   * `false` for a server that speaks over HTTP: stdout is then a log, kept with the stderr tail,
   * and `send` is not used. Default true.
   */
  stdoutIsProtocol?: boolean;
}

export interface ChildExit {
  code: number | null;
  signal: NodeJS.Signals | null;
}

export class ChildProcessTransport {
  onclose?: () => void;
  onerror?: (error: Error) => void;
  onmessage?: (message: never, extra?: unknown) => void;

  /** Called with every message the server wrote, before the client sees it. */
  onServerMessage?: (message: WireMessage) => void;
  /** Called with every message the client sent. */
  onClientMessage?: (message: WireMessage) => void;
  /** Called with every stdout line that is not a JSON-RPC message. */
  onGarbage?: (line: string) => void;

  private child?: ChildProcess;
  private buffer = '';
  private stderrText = '';
  private closed = false;
  private closing = false;
  private exitInfo?: ChildExit;
  private exitPromise?: Promise<ChildExit>;

  constructor(private readonly options: ChildTransportOptions) {}

  /** The tail of what the child wrote to stderr so far. */
  get stderr(): string {
    return this.stderrText;
  }

  /** How the child ended, once it has. */
  get exit(): ChildExit | undefined {
    return this.exitInfo;
  }

  /** How the child ended, if it ended before anyone asked it to (close() or the client closing stdin). */
  get unpromptedExit(): ChildExit | undefined {
    return this.exitedBeforeClose ? this.exitInfo : undefined;
  }

  private exitedBeforeClose = false;

  get pid(): number | undefined {
    return this.child?.pid;
  }

  async start(): Promise<void> {
    if (this.child) throw new Error('ChildProcessTransport already started');
    const limit = this.options.stderrLimit ?? 16_000;
    const child = spawn(this.options.command, {
      shell: true,
      cwd: this.options.cwd,
      env: { ...process.env, ...this.options.env },
      stdio: ['pipe', 'pipe', 'pipe'],
      // Its own process group, so close() can end the whole tree (a shell, npx, tsx, the server).
      detached: process.platform !== 'win32',
      windowsHide: true,
    });
    this.child = child;
    this.exitPromise = new Promise<ChildExit>(resolve => {
      child.once('exit', (code, signal) => {
        this.exitInfo = { code, signal };
        this.exitedBeforeClose = !this.closing;
        resolve(this.exitInfo);
        // Let the last stdout chunks arrive; 'close' usually comes first unless a grandchild holds the pipes.
        setTimeout(() => this.finish(), 100).unref();
      });
      child.once('close', () => this.finish());
    });
    await new Promise<void>((resolve, reject) => {
      child.once('spawn', () => resolve());
      child.once('error', error => {
        reject(error);
        this.onerror?.(error);
        this.finish();
      });
    });
    const log = (chunk: string) => {
      this.stderrText = (this.stderrText + chunk).slice(-limit);
    };
    child.stdout!.setEncoding('utf8');
    child.stdout!.on('data', (chunk: string) => (this.options.stdoutIsProtocol === false ? log(chunk) : this.read(chunk)));
    child.stderr!.setEncoding('utf8');
    child.stderr!.on('data', log);
    child.stdin!.on('error', error => this.onerror?.(error));
  }

  private read(chunk: string): void {
    this.buffer += chunk;
    let newline: number;
    while ((newline = this.buffer.indexOf('\n')) !== -1) {
      const line = this.buffer.slice(0, newline).replace(/\r$/, '');
      this.buffer = this.buffer.slice(newline + 1);
      if (line.trim() === '') continue;
      let message: unknown;
      try {
        message = JSON.parse(line);
      } catch {
        this.onGarbage?.(line);
        continue;
      }
      if (typeof message !== 'object' || message === null || Array.isArray(message) || (message as WireMessage).jsonrpc !== '2.0') {
        this.onGarbage?.(line);
        continue;
      }
      this.onServerMessage?.(message as WireMessage);
      try {
        this.onmessage?.(message as never);
      } catch (error) {
        this.onerror?.(error instanceof Error ? error : new Error(String(error)));
      }
    }
  }

  async send(message: unknown): Promise<void> {
    const child = this.child;
    if (!child || this.closed || !child.stdin || child.stdin.destroyed) throw new Error('Not connected');
    this.onClientMessage?.(message as WireMessage);
    const json = JSON.stringify(message) + '\n';
    await new Promise<void>((resolve, reject) => {
      child.stdin!.write(json, error => (error ? reject(error) : resolve()));
    });
  }

  /** Ends the child: stdin closed, then SIGTERM to its process group, then SIGKILL. Always resolves. */
  async close(): Promise<void> {
    const child = this.child;
    if (!child) return;
    const first = !this.closing;
    this.closing = true;
    if (this.exitInfo === undefined) {
      child.stdin?.end();
      if (!(await this.waitExit(300))) {
        this.signal('SIGTERM');
        if (!(await this.waitExit(700))) {
          this.signal('SIGKILL');
          await this.waitExit(2000);
        }
      }
    }
    // The server may have left helpers behind in its group; they go too (once: the group id is not reused
    // while we still hold it, but later it could be).
    if (first) this.signal('SIGKILL');
    this.finish();
  }

  private signal(signal: NodeJS.Signals): void {
    const pid = this.child?.pid;
    if (pid === undefined) return;
    try {
      if (process.platform !== 'win32') process.kill(-pid, signal);
      else this.child?.kill(signal);
    } catch {
      // Already gone.
    }
  }

  private async waitExit(ms: number): Promise<boolean> {
    if (this.exitInfo) return true;
    let timer: NodeJS.Timeout | undefined;
    const timeout = new Promise<false>(resolve => {
      timer = setTimeout(() => resolve(false), ms);
    });
    const done = await Promise.race([this.exitPromise!.then(() => true as const), timeout]);
    clearTimeout(timer);
    return done;
  }

  private finish(): void {
    if (this.closed) return;
    this.closed = true;
    this.onclose?.();
  }
}
