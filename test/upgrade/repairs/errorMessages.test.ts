/**
 * src/upgrade/repairs/errorMessages.ts: McpError's message, which SDK 2.x's ProtocolError no longer prefixes with
 * "MCP error <code>: ", kept as clients saw it.
 */
import { describe, expect, it } from 'vitest';
import { upgraded } from '../support.js';

describe("McpError's message, which 2.x's ProtocolError no longer prefixes", () => {
  it('keeps the "MCP error <code>: " prefix clients saw, whatever the message is written as', () => {
    const { text, notes } = upgraded(`import { McpError, ErrorCode } from '@modelcontextprotocol/sdk/types.js';
export function fail(name: string, why: string) {
  if (name === 'a') throw new McpError(ErrorCode.MethodNotFound, \`Unknown tool: \${name}\`);
  if (name === 'b') throw new McpError(ErrorCode.InvalidParams, 'bad \\\`b\\\`');
  if (name === 'c') throw new McpError(-32000, why, { name });
  throw new McpError(codeOf(name), why);
}
class NotReady extends McpError {
  constructor() {
    super(ErrorCode.InternalError, 'not ready');
  }
}
declare function codeOf(name: string): number;
`);
    expect(text).toContain(
      'throw new ProtocolError(ProtocolErrorCode.MethodNotFound, `MCP error ${ProtocolErrorCode.MethodNotFound}: Unknown tool: ${name}`);',
    );
    expect(text).toContain(
      'throw new ProtocolError(ProtocolErrorCode.InvalidParams, `MCP error ${ProtocolErrorCode.InvalidParams}: bad \\`b\\``);',
    );
    expect(text).toContain('throw new ProtocolError(-32000, `MCP error -32000: ${why}`, { name });');
    expect(text).toContain('super(ProtocolErrorCode.InternalError, `MCP error ${ProtocolErrorCode.InternalError}: not ready`);');
    // a code read by a call would be read twice: left, and said
    expect(text).toContain('throw new ProtocolError(codeOf(name), why);');
    expect(notes.filter(n => /^info: the ProtocolError message keeps the "MCP error <code>: " prefix/.test(n))).toHaveLength(4);
    expect(notes).toContainEqual(
      expect.stringMatching(/^warning: SDK 1\.x's McpError added "MCP error <code>: " to its message and 2\.x's ProtocolError does not/),
    );
  });
});

describe("McpError's message, which 2.x's ProtocolError no longer prefixes, in one edit of the file", () => {
  it("gives an error made inside another's message its prefix too, the inner one read as edited", () => {
    const { text } = upgraded(`import { McpError, ErrorCode } from '@modelcontextprotocol/sdk/types.js';
export function fail(why: string) {
  throw new McpError(ErrorCode.InternalError, \`wrapped: \${new McpError(-32001, why).message}\`);
}
export function other(why: string) {
  throw new McpError(-32002, why);
}
`);
    expect(text).toContain(
      'throw new ProtocolError(ProtocolErrorCode.InternalError, `MCP error ${ProtocolErrorCode.InternalError}: wrapped: ${new ProtocolError(-32001, `MCP error -32001: ${why}`).message}`);',
    );
    expect(text).toContain('throw new ProtocolError(-32002, `MCP error -32002: ${why}`);');
  });
});
