/**
 * src/upgrade/repairs/errorCodeUses.ts: uses of ErrorCode the official codemod leaves naming nothing, written where
 * its members went.
 */
import { describe, expect, it } from 'vitest';
import { upgraded } from '../support.js';

describe('uses of ErrorCode the official codemod leaves naming nothing', () => {
  it('writes a member in a type where the codemod sends it in an expression, ErrorCode as a type as both enums, and marks every other use', () => {
    const { text, notes } = upgraded(`import { ErrorCode, McpError } from '@modelcontextprotocol/sdk/types.js';
export interface Failure {
  code: ErrorCode;
  message: string;
}
export type BadParams = ErrorCode.InvalidParams;
export type Timeout = typeof ErrorCode.RequestTimeout;
export const codes = Object.values(ErrorCode);
export function invalid(message: string): Failure {
  return { code: ErrorCode.InvalidParams, message };
}
export function fail(f: Failure): never {
  throw new McpError(f.code, f.message);
}
`);
    expect(text).toContain('export type BadParams = ProtocolErrorCode.InvalidParams;');
    expect(text).toContain('export type Timeout = typeof SdkErrorCode.RequestTimeout;');
    expect(text).toMatch(/^import \{[^}]*\bProtocolErrorCode\b[^}]*\bSdkErrorCode\b[^}]*\} from '@modelcontextprotocol\/server';$/m);
    // the enum used as a value holds every member: a value typed ErrorCode may be of either enum
    expect(text).toContain('  code: ProtocolErrorCode | SdkErrorCode;');
    expect(text).toMatch(
      /\/\* @mcp-codemod-error SDK 1\.x's ErrorCode names nothing here[^\n]*\*\/\nexport const codes = Object\.values\(ErrorCode\);/,
    );
    expect(text.match(/@mcp-codemod-error/g)).toHaveLength(1);
    expect(notes).toContainEqual(
      expect.stringMatching(/^info: ErrorCode\.InvalidParams in a type written as ProtocolErrorCode\.InvalidParams/),
    );
    expect(notes).toContainEqual(
      expect.stringMatching(
        /^info: ErrorCode in a type written as ProtocolErrorCode \| SdkErrorCode: [^\n]*the enum itself is used as a value/,
      ),
    );
  });

  it("replaces the codemod's finding that ErrorCode is gone with its own, one per use", () => {
    const { text, notes } = upgraded(`import type { ErrorCode } from '@modelcontextprotocol/sdk/types.js';
import { McpError } from '@modelcontextprotocol/sdk/types.js';
export type Bad = ErrorCode.InvalidParams;
export type Texts = Record<ErrorCode, string>;
`);
    expect(text).toContain('export type Bad = ProtocolErrorCode.InvalidParams;');
    expect(text).not.toContain('is not exported by the v2 packages');
    expect(text.match(/@mcp-codemod-error SDK 1\.x's ErrorCode names nothing here/g)).toHaveLength(1);
    expect(notes.filter(n => n.includes('is not exported by the v2 packages'))).toEqual([]);
  });
});
