/**
 * src/upgrade/repairs/importQuotes.ts: the file's quotes given back in the SDK imports the official codemod
 * rewrites.
 */
import { describe, expect, it } from 'vitest';
import { upgradeZodOnly } from '../../../src/upgrade/index.js';
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

describe("the file's quotes in the requires of a CommonJS zod-only module", () => {
  // The zod repairs read a CommonJS file's requires as imports and write them back: they came back in double
  // quotes, a change on every require of every schemas module of a package moving to zod 4.
  it('gives them back as written, where a repair changed the file and where none did', () => {
    const repaired = `const { z } = require('zod');
const { slug } = require('./slug');

module.exports = { Tags: z.record(z.string()), slug };
`;
    const untouched = `const { z } = require('zod');

module.exports = { Name: z.string() };
`;
    const { texts } = upgradeZodOnly([
      { path: '/p/src/tags.js', text: repaired },
      { path: '/p/src/name.js', text: untouched },
    ]);
    expect(texts.get('/p/src/tags.js')).toBe(repaired.replace('z.record(z.string())', 'z.record(z.string(), z.string())'));
    expect(texts.has('/p/src/name.js')).toBe(false);
  });
});
