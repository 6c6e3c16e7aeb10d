/**
 * src/upgrade/repairs/droppedImports.ts: a name whose SDK 1.x import the official codemod removed, marked at its
 * first read (it throws as the server starts).
 */
import { describe, expect, it } from 'vitest';
import { upgraded } from '../support.js';

describe('leftovers of the upgrade that throw as the server starts', () => {
  it('marks a name whose SDK 1.x import the codemod removed, at its first read, as failing at start-up when that runs at load', () => {
    const { text, notes } = upgraded(`import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { InMemoryTaskStore, InMemoryTaskMessageQueue } from '@modelcontextprotocol/sdk/experimental/tasks';
type Store = InMemoryTaskStore;
export function queue() {
  return new InMemoryTaskMessageQueue();
}
const taskStore: Store = new InMemoryTaskStore();
const server = new McpServer({ name: 's', version: '1' });
export { server, taskStore };
`);
    expect(text).toContain(
      '/* @mcp-codemod-error InMemoryTaskStore was imported from SDK 1.x by an import the official codemod removed (SDK 2.x has no such export): this read is a ReferenceError as the module loads, so the server throws at start-up until this is migrated; replace what it gave, then remove this marker */\nconst taskStore',
    );
    expect(text).toContain(
      '/* @mcp-codemod-error InMemoryTaskMessageQueue was imported from SDK 1.x by an import the official codemod removed (SDK 2.x has no such export): this read is a ReferenceError when it runs; replace what it gave, then remove this marker */\n  return new InMemoryTaskMessageQueue();',
    );
    expect(notes.filter(n => /^warning: .*was imported from SDK 1\.x by an import the official codemod removed/.test(n))).toHaveLength(2);
  });
});
