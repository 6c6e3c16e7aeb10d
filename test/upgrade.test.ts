/**
 * The official v1-to-v2 codemod's output, and the two type mistakes of it we correct: a context
 * member indexed where v2's context no longer has it, and a tools/call result array that SDK 1.x's
 * looser handler type let TypeScript evolve from its pushes.
 */
import { describe, expect, it } from 'vitest';
import { upgradeV1 } from '../src/upgrade.js';

const HEADER = `import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { CallToolRequestSchema, type ServerNotification, type ServerRequest } from '@modelcontextprotocol/sdk/types.js';
import type { RequestHandlerExtra } from '@modelcontextprotocol/sdk/shared/protocol.js';
`;

const SERVER = `${HEADER}
type SendRequest = RequestHandlerExtra<ServerRequest, ServerNotification>['sendRequest'];
type Signal = RequestHandlerExtra<ServerRequest, ServerNotification>['signal'];
type Auth = RequestHandlerExtra<ServerRequest, ServerNotification>['authInfo'];
export async function ask(send: SendRequest, signal: Signal, auth: Auth) {
  return { send, signal, auth };
}
const server = new Server({ name: 's', version: '1' }, { capabilities: { tools: {} } });
server.setRequestHandler(CallToolRequestSchema, async request => {
  const content = [];
  content.push({ type: 'text', text: request.params.name });
  const kept: { type: 'text'; text: string }[] = [];
  return { content, kept };
});
`;

function upgraded(text: string, file = '/project/src/server.ts'): { text: string; notes: string[] } {
  const result = upgradeV1([{ path: file, text }]);
  return { text: result.texts.get(file) ?? text, notes: result.notes.map(n => `${n.level}: ${n.message}`) };
}

describe('upgrade to SDK 2.x', () => {
  it('indexes a context member where v2 keeps it, and says so', () => {
    const { text, notes } = upgraded(SERVER);
    expect(text).toContain(`type SendRequest = ServerContext["mcpReq"]["send"];`);
    expect(text).toContain(`type Signal = ServerContext["mcpReq"]["signal"];`);
    expect(text).toContain(`type Auth = NonNullable<ServerContext["http"]>["authInfo"];`);
    expect(text).not.toMatch(/ServerContext\[["']sendRequest["']\]/);
    expect(notes).toContain('info: ServerContext["sendRequest"] (from the official codemod) does not exist in SDK 2.x: written as ServerContext["mcpReq"]["send"]');
  });

  it('types an empty result array of a low-level tools/call handler, and imports the type once', () => {
    const { text, notes } = upgraded(SERVER);
    expect(text).toContain(`const content: CallToolResult['content'] = [];`);
    // an array with its own annotation, or not the result's member, is left as written
    expect(text).toContain(`const kept: { type: 'text'; text: string }[] = [];`);
    expect(text.match(/\bCallToolResult\b/g)).toHaveLength(2);
    expect(text).toMatch(/import type \{[^}]*\bCallToolResult\b[^}]*\} from "@modelcontextprotocol\/server"|import \{[^}]*\btype CallToolResult\b[^}]*\} from "@modelcontextprotocol\/server"/);
    expect(notes.some(n => /"content" is typed CallToolResult\['content'\]/.test(n))).toBe(true);
  });

  it('leaves JavaScript without annotations', () => {
    const js = `const { Server } = require('@modelcontextprotocol/sdk/server/index.js');
const { CallToolRequestSchema } = require('@modelcontextprotocol/sdk/types.js');
const server = new Server({ name: 's', version: '1' }, { capabilities: { tools: {} } });
server.setRequestHandler(CallToolRequestSchema, async () => {
  const content = [];
  content.push({ type: 'text', text: 'hi' });
  return { content };
});
`;
    const { text } = upgraded(js, '/project/src/server.cjs');
    expect(text).toContain('const content = [];');
    expect(text).not.toContain('CallToolResult');
  });
});
