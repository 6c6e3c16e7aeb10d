/**
 * src/upgrade/repairs/zodErrorParams.ts: zod 3's error params, which zod 4 reads as one error param.
 */
import { describe, expect, it } from 'vitest';
import { upgraded } from '../support.js';

describe("zod 3's error params, which zod 4 reads as one error param", () => {
  it('writes them as zod 4 reads them alike where the factory raises only invalid_type, and marks the rest with why not', () => {
    const { text, notes } = upgraded(`import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { z } from 'zod';
const REQUIRED = 'needed';
let later = 'x';
export const Title = z.string({ required_error: 'a title' }).min(1);
export const Count = z.number({ required_error: REQUIRED, invalid_type_error: \`a number\` });
export const Flag = z.boolean({ invalid_type_error: 'yes or no' });
export const Said = z.string({ required_error: 'r', message: 'm' });
export const Pick = z.enum(['a', 'b'], { required_error: 'pick one' });
export const Mapped = z.string({ errorMap: () => ({ message: 'x' }) });
export const Late = z.string({ required_error: later });
export const Described = z.string({ required_error: 'r', description: 'd' });
export const Shape = z.object({ errorMap: z.string(), required_error: z.string() });
const issue = 'taken';
export const Named = z.string({ required_error: issue });
const server = new McpServer({ name: 's', version: '1' });
`);
    expect(text).toContain(
      "export const Title = z.string({ error: issue => (issue.input === undefined ? 'a title' : undefined) }).min(1);",
    );
    expect(text).toContain('export const Count = z.number({ error: issue => (issue.input === undefined ? REQUIRED : `a number`) });');
    expect(text).toContain("export const Flag = z.boolean({ error: issue => (issue.input === undefined ? undefined : 'yes or no') });");
    // zod 3 gave message over them
    expect(text).toContain("export const Said = z.string({ message: 'm' });");
    expect(text).toContain('export const Named = z.string({ error: zodIssue => (zodIssue.input === undefined ? issue : undefined) });');
    // a shape's keys hold schemas
    expect(text).toContain('z.object({ errorMap: z.string(), required_error: z.string() })');
    expect(text).toMatch(
      /@mcp-codemod-error required_error: [^\n]*not written so here: the issues z\.enum\(\) raises itself are not the same in zod 4[^\n]*\*\/\nexport const Pick/,
    );
    expect(text).toMatch(
      /@mcp-codemod-error errorMap: [^\n]*not written so here: an errorMap is not read alike[^\n]*\*\/\nexport const Mapped/,
    );
    expect(text).toMatch(
      /@mcp-codemod-error required_error: [^\n]*not written so here: later is not a string written out or a const[^\n]*\*\/\nexport const Late/,
    );
    expect(text).toMatch(
      /@mcp-codemod-error required_error: [^\n]*not written so here: the same params hold description[^\n]*\*\/\nexport const Described/,
    );
    expect(text.match(/@mcp-codemod-error/g)).toHaveLength(4);
    expect(notes).toContainEqual(
      expect.stringMatching(/^info: required_error, invalid_type_error of z\.number\(\) written as \{ error: issue => /),
    );
  });
});
