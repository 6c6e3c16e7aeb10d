/**
 * Property-based: legacy SDK 1.x handlers of the supported shapes, generated at random (fast-check),
 * migrated by the whole pipeline. For every generated server the output parses, every site is
 * rewritten, the output typechecks against the real SDK 2.x types, a second run changes nothing,
 * and (for a small sample) verify finds the same final results on both eras.
 *
 * Shapes: straight-line code with 1–3 awaits of elicitInput / createMessage / listRoots; locals of
 * primitive types computed before an await and used after it; an await inside if (or if and else)
 * with code after the if; adjacent independent awaits; Promise.all; an early return after a
 * non-accepted elicitation.
 *
 * Reproduce a failure with PROPERTY_SEED=<seed> (printed by fast-check and in the failing message);
 * search wider with PROPERTY_RUNS=<runs> and PROPERTY_SAMPLE=<servers verified>.
 */
import fs from 'node:fs';
import path from 'node:path';
import fc from 'fast-check';
import { beforeAll, describe, expect, it } from 'vitest';
import { migrateSources } from '../src/pipeline.js';
import { formatVerifyTable, verify, type Scenario } from '../src/verify/index.js';
import { markEsm, syntaxErrors, typecheckFiles, typeScriptFilesIn } from './support/typecheck.js';

const SEED = Number(process.env.PROPERTY_SEED ?? 20260728);
const NUM_RUNS = Number(process.env.PROPERTY_RUNS ?? 5);
/** How many generated servers verify runs on both eras. */
const BEHAVIOUR_SAMPLE = Number(process.env.PROPERTY_SAMPLE ?? 3);

const root = path.resolve(import.meta.dirname, '..');
const work = path.join(root, '.tmp', 'property');
const tsx = `node ${path.join(root, 'node_modules', 'tsx', 'dist', 'cli.mjs')}`;
const env = { MCP_REQUEST_STATE_KEY: 'property-test-key-0123456789abcdef-0123' };

// ---------------------------------------------------------------------------------------------
// the model

type Kind = 'elicit' | 'sample' | 'roots';
type Prim = 'number' | 'string' | 'boolean';

/** A local of a primitive type; `pick` chooses its initialiser among a few forms. */
interface LocalSpec {
  type: Prim;
  pick: number;
}

/** How the awaited value is bound: `const r = await …`, destructured, or not bound at all. */
type Binding = 'plain' | 'destructure' | 'ignore';

type StepSpec =
  | { t: 'await'; kind: Kind; early: boolean; binding: Binding; before: LocalSpec[] }
  | { t: 'pair'; kinds: [Kind, Kind]; before: LocalSpec[] }
  | { t: 'all'; kinds: [Kind, Kind]; before: LocalSpec[] }
  | { t: 'if'; kind: Kind; elseKind: Kind | null; before: LocalSpec[] };

interface HandlerSpec {
  steps: StepSpec[];
  /** Locals computed after the last await, from earlier ones. */
  tail: LocalSpec[];
}

interface ServerSpec {
  tools: HandlerSpec[];
}

const sitesOf = (step: StepSpec): number => (step.t === 'pair' || step.t === 'all' ? 2 : step.t === 'if' && step.elseKind ? 2 : 1);

const kindArb = fc.constantFrom<Kind>('elicit', 'sample', 'roots');
const localArb: fc.Arbitrary<LocalSpec> = fc.record({
  type: fc.constantFrom<Prim>('number', 'string', 'boolean'),
  pick: fc.nat({ max: 5 }),
});
const localsArb = fc.array(localArb, { maxLength: 2 });
const stepArb: fc.Arbitrary<StepSpec> = fc.oneof(
  fc.record({
    t: fc.constant('await' as const),
    kind: kindArb,
    early: fc.boolean(),
    binding: fc.constantFrom<Binding>('plain', 'plain', 'destructure', 'ignore'),
    before: localsArb,
  }),
  fc.record({ t: fc.constant('pair' as const), kinds: fc.tuple(kindArb, kindArb), before: localsArb }),
  fc.record({ t: fc.constant('all' as const), kinds: fc.tuple(kindArb, kindArb), before: localsArb }),
  fc.record({ t: fc.constant('if' as const), kind: kindArb, elseKind: fc.option(kindArb, { nil: null }), before: localsArb }),
);
const handlerArb: fc.Arbitrary<HandlerSpec> = fc
  .record({ steps: fc.array(stepArb, { minLength: 1, maxLength: 3 }), tail: localsArb })
  .filter(h => h.steps.reduce((n, s) => n + sitesOf(s), 0) <= 3);
const serverArb: fc.Arbitrary<ServerSpec> = fc.record({ tools: fc.array(handlerArb, { minLength: 1, maxLength: 2 }) });
/** One property run: a few servers migrated together (one pipeline run amortises the type checker). */
const batchArb = fc.array(serverArb, { minLength: 2, maxLength: 4 });

// ---------------------------------------------------------------------------------------------
// rendering to SDK 1.x source

const ELICIT_SCHEMA = "{ type: 'object', properties: { v: { type: 'string' } }, required: ['v'] }";

class Renderer {
  private n = 0;
  private readonly nums: string[] = ['n'];
  private readonly strs: string[] = ['s'];
  private readonly bools: string[] = [];
  /** Everything the final result reports, as string expressions. */
  readonly parts: string[] = [];
  readonly lines: string[] = [];

  private fresh(prefix: string): string {
    return `${prefix}${this.n++}`;
  }

  private last(list: string[]): string {
    return list[list.length - 1]!;
  }

  local(spec: LocalSpec, indent: string): void {
    const name = this.fresh('v');
    const k = spec.pick;
    let init: string;
    if (spec.type === 'number') {
      init = [`s.length + ${k}`, `n * ${k + 1}`, `${this.last(this.nums)} + ${k}`][k % 3]!;
      this.nums.push(name);
    } else if (spec.type === 'string') {
      init = [`s + '-${k}'`, `\`\${s}:\${n}\``, `${this.last(this.strs)}.toUpperCase()`][k % 3]!;
      this.strs.push(name);
    } else {
      init = [`n > ${k}`, `s.length % 2 === 0`, `${this.last(this.nums)} >= ${k}`][k % 3]!;
      this.bools.push(name);
    }
    this.lines.push(`${indent}const ${name} = ${init};`);
    this.parts.push(`String(${name})`);
  }

  /** The awaited call of one kind; its text uses the latest string local, so that local is live. */
  call(kind: Kind): string {
    switch (kind) {
      case 'elicit':
        return `server.server.elicitInput({ message: 'Q ' + ${this.last(this.strs)}, requestedSchema: ${ELICIT_SCHEMA} })`;
      case 'sample':
        return `server.server.createMessage({ messages: [{ role: 'user', content: { type: 'text', text: 'S ' + ${this.last(this.strs)} } }], maxTokens: 20 })`;
      case 'roots':
        return 'server.server.listRoots()';
    }
  }

  /** A string expression of what the awaited request answered, as following code would read it. */
  derived(kind: Kind, result: string): string {
    switch (kind) {
      case 'elicit':
        return `${result}.action === 'accept' ? String(${result}.content?.v) : ${result}.action`;
      case 'sample':
        return `${result}.content.type === 'text' ? ${result}.content.text : 'non-text'`;
      case 'roots':
        return `${result}.roots.map((r) => r.uri).join(',')`;
    }
  }

  use(kind: Kind, result: string, indent: string): void {
    const name = this.fresh('d');
    this.lines.push(`${indent}const ${name} = ${this.derived(kind, result)};`);
    this.strs.push(name);
    this.parts.push(name);
  }

  step(step: StepSpec): void {
    const i = '    ';
    for (const l of step.before) this.local(l, i);
    switch (step.t) {
      case 'await': {
        const r = this.fresh('r');
        if (step.binding === 'ignore') {
          this.lines.push(`${i}await ${this.call(step.kind)};`);
          return;
        }
        if (step.binding === 'destructure') {
          const [a, b] = [this.fresh('x'), this.fresh('x')];
          const pattern =
            step.kind === 'elicit'
              ? `{ action: ${a}, content: ${b} }`
              : step.kind === 'sample'
                ? `{ content: ${a}, model: ${b} }`
                : `{ roots: ${a} }`;
          this.lines.push(`${i}const ${pattern} = await ${this.call(step.kind)};`);
          const d = this.fresh('d');
          const read =
            step.kind === 'elicit'
              ? `${a} === 'accept' ? String(${b}?.v) : ${a}`
              : step.kind === 'sample'
                ? `(${a}.type === 'text' ? ${a}.text : 'non-text') + '@' + ${b}`
                : `String(${a}.length)`;
          this.lines.push(`${i}const ${d} = ${read};`);
          this.strs.push(d);
          this.parts.push(d);
          return;
        }
        this.lines.push(`${i}const ${r} = await ${this.call(step.kind)};`);
        if (step.kind === 'elicit' && step.early) {
          this.lines.push(`${i}if (${r}.action !== 'accept') {`);
          this.lines.push(
            `${i}  return { content: [{ type: 'text', text: 'stopped ' + ${r}.action + ' ' + String(${this.last(this.nums)}) }] };`,
          );
          this.lines.push(`${i}}`);
        }
        this.use(step.kind, r, i);
        return;
      }
      case 'pair': {
        const [a, b] = [this.fresh('r'), this.fresh('r')];
        const callA = this.call(step.kinds[0]);
        const callB = this.call(step.kinds[1]);
        this.lines.push(`${i}const ${a} = await ${callA};`, `${i}const ${b} = await ${callB};`);
        this.use(step.kinds[0], a, i);
        this.use(step.kinds[1], b, i);
        return;
      }
      case 'all': {
        const [a, b] = [this.fresh('r'), this.fresh('r')];
        this.lines.push(`${i}const [${a}, ${b}] = await Promise.all([${this.call(step.kinds[0])}, ${this.call(step.kinds[1])}]);`);
        this.use(step.kinds[0], a, i);
        this.use(step.kinds[1], b, i);
        return;
      }
      case 'if': {
        const out = this.fresh('b');
        const cond = `s.length > 3`;
        this.lines.push(`${i}let ${out} = 'none';`);
        this.lines.push(`${i}if (${cond}) {`);
        const r = this.fresh('r');
        this.lines.push(`${i}  const ${r} = await ${this.call(step.kind)};`);
        this.lines.push(`${i}  ${out} = ${this.derived(step.kind, r)};`);
        this.lines.push(`${i}} else {`);
        if (step.elseKind) {
          const e = this.fresh('r');
          this.lines.push(`${i}  const ${e} = await ${this.call(step.elseKind)};`);
          this.lines.push(`${i}  ${out} = 'else ' + (${this.derived(step.elseKind, e)});`);
        } else {
          this.lines.push(`${i}  ${out} = 'short ' + ${this.last(this.strs)};`);
        }
        this.lines.push(`${i}}`);
        // code after the if reads what the branch produced
        const after = this.fresh('d');
        this.lines.push(`${i}const ${after} = ${out} + '/' + String(${this.last(this.nums)});`);
        this.strs.push(after);
        this.parts.push(after);
        return;
      }
    }
  }
}

function renderHandler(tool: string, spec: HandlerSpec): string {
  const r = new Renderer();
  // a mutable local, changed before and after every step
  r.lines.push('    let count = n;');
  for (const step of spec.steps) {
    r.lines.push('    count += 1;');
    r.step(step);
  }
  r.lines.push('    count *= 2;');
  r.parts.push('String(count)');
  for (const l of spec.tail) r.local(l, '    ');
  return [
    'server.registerTool(',
    `  '${tool}',`,
    `  { description: 'generated', inputSchema: { s: z.string(), n: z.number() } },`,
    '  async ({ s, n }) => {',
    ...r.lines,
    `    return { content: [{ type: 'text', text: [${r.parts.join(', ')}].join(' | ') }] };`,
    '  },',
    ');',
  ].join('\n');
}

function renderServer(spec: ServerSpec): string {
  return [
    "import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';",
    "import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';",
    "import { z } from 'zod';",
    '',
    "const server = new McpServer({ name: 'generated', version: '1.0.0' });",
    '',
    ...spec.tools.map((h, i) => renderHandler(`t${i}`, h) + '\n'),
    'async function main(): Promise<void> {',
    '  await server.connect(new StdioServerTransport());',
    '}',
    '',
    'main().catch((error) => {',
    '  console.error(error);',
    '  process.exit(1);',
    '});',
    '',
  ].join('\n');
}

/** Per tool: a long argument (the if branch) answered with accepts, a short one (the else branch) with declines. */
function scenarioFor(spec: ServerSpec): Scenario {
  const sampling = [{ role: 'assistant', model: 'm', content: { type: 'text', text: 'sampled' } }];
  const roots = [{ roots: [{ uri: 'file:///a', name: 'a' }, { uri: 'file:///b' }] }];
  return {
    calls: spec.tools.flatMap((_, i) => [
      {
        name: `t${i} accept`,
        method: 'tools/call' as const,
        params: { name: `t${i}`, arguments: { s: 'hello', n: 2 } },
        answers: { elicitation: [{ action: 'accept', content: { v: 'yes' } }], sampling, roots },
      },
      {
        name: `t${i} decline`,
        method: 'tools/call' as const,
        params: { name: `t${i}`, arguments: { s: 'ab', n: 5 } },
        answers: { elicitation: [{ action: 'decline' }], sampling, roots },
      },
      {
        name: `t${i} cancel`,
        method: 'tools/call' as const,
        params: { name: `t${i}`, arguments: { s: 'hello', n: 0 } },
        answers: { elicitation: [{ action: 'accept', content: { v: 'first' } }, { action: 'cancel' }], sampling, roots },
      },
    ]),
  };
}

// ---------------------------------------------------------------------------------------------

interface Generated {
  run: number;
  index: number;
  spec: ServerSpec;
  source: string;
  before: string;
  after: string;
}

const generated: Generated[] = [];
const outputDirs: string[] = [];

function describeCase(g: Generated): string {
  return `seed ${SEED}, run ${g.run}, server ${g.index} (${path.relative(root, g.before)})\n${g.source}`;
}

beforeAll(() => {
  fs.rmSync(work, { recursive: true, force: true });
  markEsm(work);
});

describe('generated legacy handlers of the supported shapes (fast-check)', () => {
  it(`migrate to output that parses, rewrites every site, and is a fixed point (seed ${SEED}, ${NUM_RUNS} runs)`, async () => {
    let run = 0;
    await fc.assert(
      fc.asyncProperty(batchArb, async batch => {
        const dir = path.join(work, `run-${run++}`);
        const beforeDir = path.join(dir, 'before');
        const afterDir = path.join(dir, 'after');
        fs.rmSync(dir, { recursive: true, force: true });
        fs.mkdirSync(beforeDir, { recursive: true });
        fs.mkdirSync(afterDir, { recursive: true });
        const cases: Generated[] = batch.map((spec, index) => {
          const source = renderServer(spec);
          const before = path.join(beforeDir, `server${index}.ts`);
          fs.writeFileSync(before, source);
          return { run: run - 1, index, spec, source, before, after: path.join(afterDir, `server${index}.ts`) };
        });
        for (const g of cases) expect(syntaxErrors(g.before, g.source), `generator bug: ${describeCase(g)}`).toEqual([]);

        const first = await migrateSources(
          cases.map(g => ({ path: g.after, text: g.source })),
          { cwd: afterDir },
        );
        for (const change of first.changes) fs.writeFileSync(change.path, change.after);
        expect(fs.existsSync(path.join(afterDir, 'mcp-migrate-state.ts'))).toBe(true);
        for (const g of cases) {
          const out = first.changes.find(c => c.path === g.after)?.after;
          expect(out, `not changed: ${describeCase(g)}`).toBeDefined();
          expect(syntaxErrors(g.after, out!), `output does not parse: ${describeCase(g)}\n--- output ---\n${out}`).toEqual([]);
          const sites = first.report.sites.filter(s => s.file === path.basename(g.after));
          const expected = g.spec.tools.reduce((n, h) => n + h.steps.reduce((m, s) => m + sitesOf(s), 0), 0);
          expect(sites.length, `sites found: ${describeCase(g)}`).toBe(expected);
          expect(
            sites.filter(s => s.outcome !== 'rewritten').map(s => `${s.line}: ${s.reason}`),
            `not rewritten: ${describeCase(g)}`,
          ).toEqual([]);
          expect(out).not.toMatch(/server\.server\.(elicitInput|createMessage|listRoots)\(/);
        }
        expect(first.report.files.filter(f => f.outcome === 'error')).toEqual([]);

        const second = await migrateSources(
          cases.map(g => ({ path: g.after, text: fs.readFileSync(g.after, 'utf8') })),
          { cwd: afterDir },
        );
        for (const g of cases) {
          const again = second.changes.find(c => c.path === g.after);
          expect(again?.after, `second run changed the output: ${describeCase(g)}`).toBeUndefined();
        }
        expect(second.changes, 'second run wants to change something').toEqual([]);
        generated.push(...cases);
        outputDirs.push(afterDir);
      }),
      { seed: SEED, numRuns: NUM_RUNS, endOnFailure: true, verbose: 1 },
    );
    expect(generated.length).toBeGreaterThanOrEqual(NUM_RUNS * 2);
  }, 600_000);

  it('every generated output typechecks against the real SDK 2.x types', () => {
    expect(outputDirs.length, 'the migration property ran first').toBe(NUM_RUNS);
    const diagnostics = typecheckFiles(typeScriptFilesIn(outputDirs), work);
    const explain = diagnostics.map(d => {
      const g = generated.find(c => d.startsWith(path.relative(work, c.after) + ':'));
      return g ? `${d}\n  from ${describeCase(g)}` : d;
    });
    expect(explain).toEqual([]);
  }, 600_000);

  it(`a sample of ${BEHAVIOUR_SAMPLE} behaves like its input under verify on both eras (accept, decline, cancel)`, async () => {
    expect(generated.length).toBeGreaterThanOrEqual(BEHAVIOUR_SAMPLE);
    // spread over the runs, deterministic for the seed
    const firsts = Array.from({ length: NUM_RUNS }, (_, r) => generated.find(g => g.run === r)).filter(
      (g): g is Generated => g !== undefined,
    );
    const sample = [...firsts, ...generated.filter(g => !firsts.includes(g))].slice(0, BEHAVIOUR_SAMPLE);
    for (const g of sample) {
      const result = await verify({
        before: `${tsx} ${g.before}`,
        after: `${tsx} ${g.after}`,
        scenario: scenarioFor(g.spec),
        env,
        timeoutMs: 120_000,
      });
      expect(result.ok, `${formatVerifyTable(result)}\n${describeCase(g)}`).toBe(true);
    }
  }, 600_000);
});
