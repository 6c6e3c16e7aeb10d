/** A minimal tracer in the style of OpenTelemetry's startActiveSpan: runs the callback inside a named span. */
export interface Span {
  name: string;
  attributes: Record<string, string | number>;
}

const finished: Span[] = [];

export const tracer = {
  async span<T>(name: string, fn: (span: Span) => Promise<T>): Promise<T> {
    const span: Span = { name, attributes: {} };
    try {
      return await fn(span);
    } finally {
      finished.push(span);
    }
  },
  count(): number {
    return finished.length;
  },
};

/** Rejects when the work takes longer than `ms`; otherwise resolves with its value. */
export async function withTimeout<T>(work: () => Promise<T>, ms: number): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const expired = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`timed out after ${ms} ms`)), ms);
  });
  try {
    return await Promise.race([work(), expired]);
  } finally {
    clearTimeout(timer);
  }
}
