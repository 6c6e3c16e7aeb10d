/**
 * src/rewrite/serverWiring.ts: a server constructed with `requestState: { verify }` in its options, written in the
 * file's own layout: added to an options literal (its lines, indentation and trailing comma kept), spread from
 * options held in a name, or given as the options where there are none.
 */
import { describe, expect, it } from 'vitest';
import type { ServerWiringPlan } from '../../src/plan.js';
import { planOf, range, rewritten } from './support.js';

/** The plan of the construction `construct` of `source`, its options `options` (an object literal where it starts with `{`). */
function wiring(source: string, construct: string, firstArg: string, options?: string, properties: string[] = []): ServerWiringPlan {
  return {
    construct: range(source, construct),
    firstArg: range(source, firstArg, construct),
    ...(options ? { options: range(source, options, construct) } : {}),
    optionsIsObjectLiteral: options?.startsWith('{') === true,
    ...(properties.length > 0 ? { optionProperties: properties.map(p => range(source, p, construct)) } : {}),
    alreadyWired: false,
  };
}

describe('server wiring', () => {
  it('gives a server without options its requestState options, and imports verifyRequestState', () => {
    const source = `import { McpServer } from '@modelcontextprotocol/server';\n\nconst server = new McpServer({ name: 's', version: '1.0.0' });\n`;
    const { text, acted } = rewritten(
      source,
      planOf({ servers: [wiring(source, "new McpServer({ name: 's', version: '1.0.0' })", "{ name: 's', version: '1.0.0' }")] }),
    );
    expect(acted).toEqual(['server-wiring']);
    expect(text).toBe(`import { McpServer } from '@modelcontextprotocol/server';
import { verifyRequestState } from './mcp-migrate-state.js';

const server = new McpServer({ name: 's', version: '1.0.0' }, { requestState: { verify: verifyRequestState } });
`);
  });

  it('adds the property to an options literal written over several lines, keeping its trailing comma', () => {
    const source = `const server = new McpServer(
  { name: 's', version: '1.0.0' },
  {
    capabilities: { tools: {} },
    instructions: 'Be brief.',
  },
);
`;
    const construct = source.slice(0, source.lastIndexOf(')') + 1).replace('const server = ', '');
    const options = `{\n    capabilities: { tools: {} },\n    instructions: 'Be brief.',\n  }`;
    const { text } = rewritten(source, planOf({ servers: [wiring(source, construct, "{ name: 's', version: '1.0.0' }", options)] }));
    expect(text).toContain(`  {
    capabilities: { tools: {} },
    instructions: 'Be brief.',
    requestState: { verify: verifyRequestState },
  },
);`);
  });

  it('spreads options held in a name', () => {
    const source = `const server = new McpServer(info, options);\n`;
    const { text } = rewritten(source, planOf({ servers: [wiring(source, 'new McpServer(info, options)', 'info', 'options')] }));
    expect(text).toContain('const server = new McpServer(info, { ...options, requestState: { verify: verifyRequestState } });');
  });

  it("wires a subclass's super(...) call", () => {
    const source = `class NotesServer extends McpServer {\n  constructor() {\n    super({ name: 'notes', version: '1.0.0' });\n  }\n}\n`;
    const { text } = rewritten(
      source,
      planOf({ servers: [wiring(source, "super({ name: 'notes', version: '1.0.0' })", "{ name: 'notes', version: '1.0.0' }")] }),
    );
    expect(text).toContain("    super({ name: 'notes', version: '1.0.0' }, { requestState: { verify: verifyRequestState } });");
  });
});
