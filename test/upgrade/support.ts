/**
 * What the upgrade's tests share: a file upgraded alone (the official codemod's transforms, then the repairs), and
 * a low-level server whose context types and result array the repairs correct.
 */
import { upgradeV1 } from '../../src/upgrade/index.js';

const HEADER = `import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { CallToolRequestSchema, type ServerNotification, type ServerRequest } from '@modelcontextprotocol/sdk/types.js';
import type { RequestHandlerExtra } from '@modelcontextprotocol/sdk/shared/protocol.js';
`;

export const SERVER = `${HEADER}
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

/** `text` upgraded as the file `file`, alone: its text after, and the notes as `level: message`. */
export function upgraded(text: string, file = '/project/src/server.ts'): { text: string; notes: string[] } {
  const result = upgradeV1([{ path: file, text }]);
  return { text: result.texts.get(file) ?? text, notes: result.notes.map(n => `${n.level}: ${n.message}`) };
}
