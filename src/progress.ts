/**
 * A one-line progress bar for long runs, on a TTY stream only. No dependency: `\r` and an erase-line escape.
 */

export interface ProgressStream {
  isTTY?: boolean;
  columns?: number;
  write(chunk: string): boolean;
}

export interface Progress {
  /** Advance by `n` (default 1); `label` is shown after the bar (e.g. the current file). */
  tick(n?: number, label?: string): void;
  /** Change the phase shown before the bar and reset the count. */
  phase(name: string, total: number): void;
  /** Erase the bar; the stream is left as if the bar had never been there. */
  done(): void;
}

export interface ProgressOptions {
  stream: ProgressStream;
  /** Only files above this count get a bar (default 200). */
  threshold?: number;
  /** Force off (e.g. --quiet). */
  disabled?: boolean;
  /** Minimum milliseconds between redraws (default 80). */
  interval?: number;
}

const NOOP: Progress = { tick() {}, phase() {}, done() {} };

/** A bar when `stream` is a TTY and `total` exceeds the threshold; otherwise an object that does nothing. */
export function createProgress(phaseName: string, total: number, options: ProgressOptions): Progress {
  const { stream } = options;
  if (options.disabled || !stream.isTTY || total <= (options.threshold ?? 200)) return NOOP;
  const interval = options.interval ?? 80;
  let name = phaseName;
  let max = total;
  let count = 0;
  let last = 0;
  let shown = false;

  const draw = (label: string | undefined, force: boolean) => {
    const now = Date.now();
    if (!force && now - last < interval) return;
    last = now;
    const width = Math.max(40, stream.columns ?? 80);
    const ratio = max > 0 ? Math.min(1, count / max) : 1;
    const barWidth = Math.min(30, Math.max(10, width - 50));
    const filled = Math.round(ratio * barWidth);
    const head = `${name} [${'#'.repeat(filled)}${'-'.repeat(barWidth - filled)}] ${count}/${max}`;
    const room = width - head.length - 2;
    const tail = label && room > 5 ? ` ${label.length > room ? `…${label.slice(-(room - 1))}` : label}` : '';
    stream.write(`\r\x1b[2K${head}${tail}`);
    shown = true;
  };

  return {
    tick(n = 1, label) {
      count += n;
      draw(label, count >= max);
    },
    phase(next, nextTotal) {
      name = next;
      max = nextTotal;
      count = 0;
      draw(undefined, true);
    },
    done() {
      if (shown) stream.write('\r\x1b[2K');
      shown = false;
    },
  };
}
