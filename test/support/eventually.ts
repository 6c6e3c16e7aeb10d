/**
 * What a child process writes reaches its pipe when it does: a test waits for the text it expects (the test's
 * own timeout bounds the wait), rather than reading it at a moment a loaded machine may not have reached yet.
 */
export async function eventually(read: () => string, done: (text: string) => boolean): Promise<string> {
  while (!done(read())) await new Promise(resolve => setTimeout(resolve, 50));
  return read();
}
