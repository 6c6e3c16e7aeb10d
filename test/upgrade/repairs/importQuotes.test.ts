/**
 * src/upgrade/repairs/importQuotes.ts: the file's quotes given back in the SDK imports the official codemod
 * rewrites.
 */
import { describe, expect, it } from 'vitest';
import { upgraded } from '../support.js';

describe("the file's quotes in the SDK imports the official codemod rewrites", () => {
  it('gives a single-quoted file its quotes back, and leaves a double-quoted one as it is', () => {
    const single = upgraded(`import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { z } from 'zod';
export const server = new McpServer({ name: 's', version: '1' });
export type R = CallToolResult;
`);
    expect(single.text).toMatch(/^import \{ McpServer \} from '@modelcontextprotocol\/server';$/m);
    expect(single.text).toMatch(/^import type \{ CallToolResult \} from '@modelcontextprotocol\/server';$/m);
    expect(single.text).not.toContain('"');
    const double = upgraded(`import { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import { z } from "zod";
export const server = new McpServer({ name: "s", version: "1" });
`);
    expect(double.text).toMatch(/^import \{ McpServer \} from "@modelcontextprotocol\/server";$/m);
  });
});
