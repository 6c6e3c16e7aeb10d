/**
 * src/upgrade/repairs/contextTypes.ts: a context member the official codemod indexes on ServerContext where SDK 2.x
 * has none (`ServerContext['sendRequest']`), indexed where 2.x keeps it.
 */
import { describe, expect, it } from 'vitest';
import { SERVER, upgraded } from '../support.js';

describe('context members indexed where SDK 2.x has none', () => {
  it('indexes a context member where v2 keeps it, and says so', () => {
    const { text, notes } = upgraded(SERVER);
    expect(text).toContain(`type SendRequest = ServerContext["mcpReq"]["send"];`);
    expect(text).toContain(`type Signal = ServerContext["mcpReq"]["signal"];`);
    expect(text).toContain(`type Auth = NonNullable<ServerContext["http"]>["authInfo"];`);
    expect(text).not.toMatch(/ServerContext\[["']sendRequest["']\]/);
    expect(notes).toContain(
      'info: ServerContext["sendRequest"] (from the official codemod) does not exist in SDK 2.x: written as ServerContext["mcpReq"]["send"]',
    );
  });
});
