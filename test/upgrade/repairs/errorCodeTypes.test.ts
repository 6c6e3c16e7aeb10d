/**
 * src/upgrade/repairs/errorCodeTypes.ts: ErrorCode as a type, which SDK 2.x split into ProtocolErrorCode and
 * SdkErrorCode.
 */
import { describe, expect, it } from 'vitest';
import { upgradeV1 } from '../../../src/upgrade/index.js';

describe('ErrorCode as a type, which SDK 2.x split into ProtocolErrorCode and SdkErrorCode', () => {
  const errors = `import { ErrorCode, McpError } from '@modelcontextprotocol/sdk/types.js';
export interface Failure {
  code: ErrorCode;
  message: string;
}
export const invalid = (message: string): Failure => ({ code: ErrorCode.InvalidParams, message });
export function codeOf(e: McpError): ErrorCode | undefined { return e.code as ErrorCode; }
export const seen: ErrorCode[] = [];
export type Texts = Record<ErrorCode, string>;
export function fail(f: Failure): never {
  throw new McpError(f.code, f.message);
}
`;

  const timeouts = `import { ErrorCode } from '@modelcontextprotocol/sdk/types.js';
export const isTimeout = (code: number) => code === ErrorCode.RequestTimeout;
`;

  it('is ProtocolErrorCode when no file of the run names a member the codemod sends to SdkErrorCode, so it stays a number', () => {
    const result = upgradeV1([{ path: '/project/src/errors.ts', text: errors }]);
    const text = result.texts.get('/project/src/errors.ts')!;
    expect(text).toContain('  code: ProtocolErrorCode;');
    expect(text).toContain(
      'export function codeOf(e: ProtocolError): ProtocolErrorCode | undefined { return e.code as ProtocolErrorCode; }',
    );
    expect(text).toContain('export const seen: ProtocolErrorCode[] = [];');
    expect(text).toMatch(/^import \{ ProtocolError, ProtocolErrorCode \} from '@modelcontextprotocol\/server';$/m);
    // one entry per code: its meaning changes with the members, so it stays marked
    expect(text).toMatch(
      /\/\* @mcp-codemod-error SDK 1\.x's ErrorCode names nothing here[^\n]*\*\/\nexport type Texts = Record<ErrorCode, string>;/,
    );
    expect(text.match(/@mcp-codemod-error/g)).toHaveLength(1);
    const notes = result.notes.filter(n => /^ErrorCode in a type written as ProtocolErrorCode: /.test(n.message));
    expect(notes.map(n => n.line)).toEqual([8, 7, 7, 3]);
    expect(notes[0]!.message).toMatch(
      /no SDK 1\.x file upgraded with this one names an ErrorCode member the official codemod sends elsewhere/,
    );
  });

  it('is both enums when another file of the run names one the codemod sends to SdkErrorCode', () => {
    const result = upgradeV1([
      { path: '/project/src/errors.ts', text: errors },
      { path: '/project/src/timeouts.ts', text: timeouts },
    ]);
    const text = result.texts.get('/project/src/errors.ts')!;
    expect(text).toContain('  code: ProtocolErrorCode | SdkErrorCode;');
    expect(text).toContain('export const seen: (ProtocolErrorCode | SdkErrorCode)[] = [];');
    expect(text).toMatch(/^import \{ ProtocolError, ProtocolErrorCode, type SdkErrorCode \} from '@modelcontextprotocol\/server';$/m);
    expect(result.notes).toContainEqual(
      expect.objectContaining({
        line: 3,
        message: expect.stringMatching(
          /the files upgraded with this one name RequestTimeout\); a use that needs a number must narrow it to ProtocolErrorCode$/,
        ),
      }),
    );
  });
});
