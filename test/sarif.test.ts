/**
 * `--format sarif`: a SARIF 2.1.0 log valid against the specification's JSON schema (as shipped by
 * @microsoft/jest-sarif), with one result per site left, per place the official codemod could not
 * migrate, per skipped file that imports the SDK and per failed file, each under the rule of its cause
 * and located where the JSON report locates it.
 */
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import AjvModule from 'ajv-draft-04';
import addFormatsModule from 'ajv-formats';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CAUSES, causeOf, type CauseId } from '../src/tables/causes.js';
import { assertBuilt, LEGACY_SERVER, makeTree, REPO, removeTree, runCli } from './cli-helpers.js';

const require = createRequire(import.meta.url);
const schemaFile = path.join(
  path.dirname(require.resolve('@microsoft/jest-sarif/package.json')),
  'lib',
  'schemas',
  'sarif-2.1.0-rtm.5.json',
);
// The schema's language pattern is not valid under the u flag: match patterns as plain regular expressions.
// CommonJS modules whose default export is under .default when imported from ESM with NodeNext types.
const Ajv = ((AjvModule as { default?: unknown }).default ?? AjvModule) as typeof AjvModule.default;
const addFormats = ((addFormatsModule as { default?: unknown }).default ?? addFormatsModule) as typeof addFormatsModule.default;
const ajv = new Ajv({ allErrors: true, strict: false, unicodeRegExp: false });
addFormats(ajv);
const validate = ajv.compile(JSON.parse(readFileSync(schemaFile, 'utf8')));

function expectValidSarif(log: unknown): void {
  const ok = validate(log);
  expect(ok, JSON.stringify(validate.errors?.slice(0, 5), null, 2)).toBe(true);
}

const MARKED = readFileSync(path.join(REPO, '__testfixtures__', 'marked-only.input.ts'), 'utf8');
/** Tools registered in a loop, with a description computed: left by the official codemod, with its marker. */
const UNCONVERTIBLE_TOOL = `import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { describeTool } from './describe.js';
const server = new McpServer({ name: 'tools', version: '1.0.0' });
for (const tool of [{ name: 'ping' }]) server.tool(tool.name, describeTool(tool), async () => ({ content: [{ type: 'text', text: 'pong' }] }));
`;
const DESCRIBE = 'export const describeTool = (tool: { name: string }) => `The ${tool.name} tool`;\n';

interface Result {
  ruleId: string;
  ruleIndex: number;
  level: string;
  message: { text: string };
  locations: {
    physicalLocation: { artifactLocation: { uri: string; uriBaseId: string }; region?: { startLine: number; startColumn?: number } };
  }[];
}

let root: string;
let sarif: { runs: { tool: { driver: { rules: { id: string }[] } }; results: Result[]; invocations: { exitCode: number }[] }[] };
let json: {
  sites: {
    file: string;
    line: number;
    column: number;
    outcome: string;
    kind: 'elicitation';
    reason: string;
    cause?: string;
    causeId?: CauseId;
  }[];
  codemodLeftovers: { file: string; line: number }[];
};

beforeAll(async () => {
  assertBuilt();
  root = await makeTree({
    'src/server.ts': LEGACY_SERVER,
    'src/shapes.ts': MARKED,
    'src/tools.ts': UNCONVERTIBLE_TOOL,
    'src/describe.ts': DESCRIBE,
    'src/vendor.min.js': 'import { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";\n',
    'src/dir with space/broken.ts': "import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';\nnew McpServer({ name: 'x' ;\n",
  });
  const [s, j] = await Promise.all([runCli(['--check', '--format', 'sarif', 'src'], root), runCli(['--check', '--json', 'src'], root)]);
  expect(s.code, s.stderr).toBe(1);
  sarif = JSON.parse(s.stdout);
  json = JSON.parse(j.stdout);
}, 600_000);
afterAll(() => removeTree(root));

describe('--format sarif', () => {
  it('is valid SARIF 2.1.0', () => {
    expectValidSarif(sarif);
    expect(sarif.runs[0]!.invocations[0]!.exitCode).toBe(1);
  });

  it("has a result for every site left, under the rule of its cause, at the site's file, line and column", () => {
    const results = sarif.runs[0]!.results;
    const left = json.sites.filter(s => s.outcome !== 'rewritten');
    expect(left.length).toBeGreaterThanOrEqual(3);
    for (const site of left) {
      const match = results.find(r => {
        const loc = r.locations[0]!.physicalLocation;
        return (
          loc.artifactLocation.uri === site.file &&
          loc.region?.startLine === site.line &&
          loc.region?.startColumn === site.column &&
          r.message.text === site.reason
        );
      });
      expect(match, `${site.file}:${site.line}:${site.column}`).toBeDefined();
      expect(match!.ruleId).toBe(causeOf(site).id);
      expect(match!.ruleId).not.toBe('unclassified');
    }
  });

  it("has results for the official codemod's leftover, the skipped SDK file and the failed file; rule indexes point at their rules", () => {
    const results = sarif.runs[0]!.results;
    const rules = sarif.runs[0]!.tool.driver.rules;
    const at = (id: string) =>
      results
        .filter(r => r.ruleId === id)
        .map(r => `${r.locations[0]!.physicalLocation.artifactLocation.uri}:${r.locations[0]!.physicalLocation.region?.startLine ?? ''}`);
    expect(at('codemod-manual-migration')).toEqual(json.codemodLeftovers.map(l => `${l.file}:${l.line}`));
    expect(json.codemodLeftovers.map(l => l.file)).toEqual(['src/tools.ts']);
    expect(at('sdk-file-skipped')).toEqual(['src/vendor.min.js:']);
    expect(at('file-failed')).toEqual([expect.stringMatching(/^src\/dir%20with%20space\/broken\.ts:/)]);
    for (const r of results) expect(rules[r.ruleIndex]!.id).toBe(r.ruleId);
    expect(rules.map(r => r.id)).toEqual(expect.arrayContaining(CAUSES.map(c => c.id)));
  });

  it('is valid after an in-place run too (no pending changes then)', async () => {
    const copy = await makeTree({ 'src/server.ts': LEGACY_SERVER, 'src/tools.ts': UNCONVERTIBLE_TOOL, 'src/describe.ts': DESCRIBE });
    try {
      const r = await runCli(['--format', 'sarif', 'src'], copy);
      expect(r.code, r.stderr).toBe(0);
      const log = JSON.parse(r.stdout);
      expectValidSarif(log);
      expect(log.runs[0].results.map((x: Result) => x.ruleId)).toEqual(['codemod-manual-migration']);
    } finally {
      await removeTree(copy);
    }
  }, 600_000);
});
