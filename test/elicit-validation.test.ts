/**
 * The generated module's check of accepted elicitation content against SDK 1.x's own: the same
 * content and requested schema go through SDK 1.x's `elicitInput` (its real code, with the client
 * round trip stubbed) and through the module's `ask(server).elicitInput(...)` (the SDK 2.x ajv export,
 * configured as 1.x configured its own), in each flavour the tool writes (TypeScript, ESM, CommonJS),
 * on both eras: a 2025-era request (the server's request stubbed, parsing the answer as SDK 2.x's
 * does) and a 2026-07-28 one (the handler replayed through `resumable`, with the SDK's requestState
 * seam played by the test: the first round's state verified, the answer sent with the retry). All must
 * accept alike, and refuse alike with the same error code and message, since migrated handlers commonly
 * put `error.message` in their result.
 *
 * Reproduce a failure with PROPERTY_SEED=<seed>; search wider with PROPERTY_RUNS=<runs>.
 */
import fs from 'node:fs';
import path from 'node:path';
import { Server as LegacyServer } from '@modelcontextprotocol/sdk/server/index.js';
import { ElicitResultSchema } from '@modelcontextprotocol/sdk/types.js';
import { ZodError } from 'zod';
import fc from 'fast-check';
import { beforeAll, describe, expect, it } from 'vitest';
import { specTypeSchemas } from '@modelcontextprotocol/server';
import { stateModuleFiles, stateModuleText, type ModuleFlavour } from '../src/stateModule.js';

const SEED = Number(process.env.PROPERTY_SEED ?? 20260728);
const NUM_RUNS = Number(process.env.PROPERTY_RUNS ?? 400);

const root = path.resolve(import.meta.dirname, '..');
const work = path.join(root, '.tmp', 'elicit-validation');

type Schema = Record<string, unknown>;
type Content = Record<string, unknown>;
/** What a handler sees: the result, the thrown error's code and message, or a refusal of the answer's shape. */
type Outcome = { result: unknown } | { code: unknown; message: string } | { malformed: true };
type Handler = (ctx: unknown) => Promise<Record<string, unknown>>;
interface StateModule {
  ask<T>(target: T): T;
  resumable<T>(server: T): T;
  verifyRequestState(wire: string, ctx: unknown): Promise<unknown>;
}

/** The low-level server a fake stands for: ask() answers elicitInput through its request(), which the fake has. */
type Asked = { elicitInput(params: never): Promise<unknown> };

const modules = new Map<ModuleFlavour, StateModule>();

beforeAll(async () => {
  fs.rmSync(work, { recursive: true, force: true });
  fs.mkdirSync(work, { recursive: true });
  for (const [flavour, ext] of [
    ['ts', '.ts'],
    ['esm', '.mjs'],
    ['cjs', '.cjs'],
  ] as const) {
    // Each flavour with its seal, in a directory of its own.
    const file = path.join(work, flavour, `mcp-migrate-state${ext}`);
    fs.mkdirSync(path.dirname(file), { recursive: true });
    for (const written of stateModuleFiles(file, flavour)) fs.writeFileSync(written.path, written.text);
    modules.set(flavour, (await import(file)) as StateModule);
  }
});

async function outcome(run: () => unknown): Promise<Outcome> {
  try {
    return { result: await run() };
  } catch (error) {
    const e = error as { code?: unknown; message: string };
    // SDK 1.x's request() threw its result schema's ZodError; SDK 2.x's, and the module, say the answer is malformed
    if (e instanceof ZodError || /^Invalid elicitation result\b/.test(e.message)) return { malformed: true };
    return { code: e.code, message: e.message };
  }
}

/** SDK 1.x's elicitInput, answered by a client that accepts with `content`. */
function legacy(content: Content, requestedSchema: Schema): Promise<Outcome> {
  const server = new LegacyServer({ name: 'legacy', version: '1.0.0' }, { capabilities: {} });
  const internals = server as unknown as { _clientCapabilities: unknown; request: () => Promise<unknown> };
  internals._clientCapabilities = { elicitation: { form: {} } };
  // request() parsed the client's answer with the result schema it was given
  internals.request = async () => ElicitResultSchema.parse({ action: 'accept', content });
  return outcome(() => server.elicitInput({ message: 'q', requestedSchema } as Parameters<LegacyServer['elicitInput']>[0]));
}

/** A 2.x server whose client answers an elicitation by accepting with `content`, the answer parsed as SDK 2.x's request() parses it. */
function answeringServer(content: Content) {
  return {
    getClientCapabilities: () => ({ elicitation: { form: {} } }),
    async request() {
      const parsed = specTypeSchemas.ElicitResult['~standard'].validate({ action: 'accept', content });
      if (parsed instanceof Promise || parsed.issues !== undefined) throw new Error('Invalid elicitation result: the answer is malformed');
      return parsed.value;
    },
  };
}

/** On a 2025-era request: `ask(server).elicitInput(...)`, outside any replayed call, sends it through the server. */
function migratedLegacy(flavour: ModuleFlavour, content: Content, requestedSchema: Schema): Promise<Outcome> {
  const module = modules.get(flavour)!;
  return outcome(() => module.ask(answeringServer(content) as unknown as Asked).elicitInput({ message: 'q', requestedSchema } as never));
}

const ENVELOPE = {
  'io.modelcontextprotocol/protocolVersion': '2026-07-28',
  'io.modelcontextprotocol/clientCapabilities': { elicitation: { form: {} } },
};

/** A 2026-07-28 request's context, carrying a verified state and answers as the SDK's seam hands them on. */
function modernContext(state: unknown, inputResponses?: Record<string, unknown>) {
  return {
    mcpReq: { id: 1, method: 'tools/call', envelope: ENVELOPE, requestState: () => state, ...(inputResponses && { inputResponses }) },
  };
}

/** On a 2026-07-28 request: the handler asks, the round goes to the client, and the retry carries its answer. */
async function migratedModern(flavour: ModuleFlavour, content: Content, requestedSchema: Schema): Promise<Outcome> {
  const module = modules.get(flavour)!;
  const handlers = new Map<string, Handler>();
  const server = { registerTool: (name: string, _config: unknown, handler: Handler) => void handlers.set(name, handler) };
  const low = { getClientCapabilities: () => undefined, request: () => Promise.reject(new Error('no push on 2026-07-28')) };
  module.resumable(server).registerTool('t', {}, async () => ({
    answer: await module.ask(low as unknown as Asked).elicitInput({ message: 'q', requestedSchema } as never),
  }));
  const handler = handlers.get('t')!;
  const first = modernContext(undefined);
  const round = (await handler(first)) as { inputRequests: Record<string, unknown>; requestState: string };
  const [key] = Object.keys(round.inputRequests);
  const state = await module.verifyRequestState(round.requestState, first);
  return outcome(
    async () => ((await handler(modernContext(state, { [key!]: { action: 'accept', content } }))) as { answer: unknown }).answer,
  );
}

async function expectSameOutcome(content: Content, schema: Schema): Promise<Outcome> {
  const expected = await legacy(content, schema);
  for (const flavour of ['ts', 'esm', 'cjs'] as const) {
    expect(await migratedLegacy(flavour, content, schema), `2025 era, ${flavour}: ${JSON.stringify({ content, schema })}`).toEqual(
      expected,
    );
    expect(await migratedModern(flavour, content, schema), `2026-07-28, ${flavour}: ${JSON.stringify({ content, schema })}`).toEqual(
      expected,
    );
  }
  return expected;
}

const object = (properties: Record<string, Schema>, required?: string[]): Schema => ({
  type: 'object',
  properties,
  ...(required && { required }),
});

// ---------------------------------------------------------------------------------------------

describe('accepted elicitation content: the module refuses what SDK 1.x refused, with its message', () => {
  const registration = object(
    {
      username: { type: 'string', title: 'Username', minLength: 3, maxLength: 20 },
      email: { type: 'string', title: 'Email', format: 'email' },
      password: { type: 'string', minLength: 8 },
      newsletter: { type: 'boolean', default: false },
      role: {
        type: 'string',
        oneOf: [
          { const: 'developer', title: 'Developer' },
          { const: 'designer', title: 'Designer' },
        ],
      },
      interests: {
        type: 'array',
        minItems: 1,
        maxItems: 2,
        items: {
          anyOf: [
            { const: 'backend', title: 'Backend' },
            { const: 'frontend', title: 'Frontend' },
          ],
        },
      },
    },
    ['username', 'email', 'password'],
  );

  it("gives SDK 1.x's messages for answers to the registration example", async () => {
    expect(await expectSameOutcome({ username: 'ada', email: 'not-an-email', password: 'correct-horse' }, registration)).toEqual({
      code: -32602,
      message: 'MCP error -32602: Elicitation response content does not match requested schema: data/email must match format "email"',
    });
    const short = await expectSameOutcome({ username: 'ad', email: 'ada@example.com', password: 'short' }, registration);
    expect((short as { message: string }).message).toBe(
      'MCP error -32602: Elicitation response content does not match requested schema: data/username must NOT have fewer than 3 characters, data/password must NOT have fewer than 8 characters',
    );
    expect(
      await expectSameOutcome(
        { username: 'ada', email: 'ada@example.com', password: 'correct-horse', role: 'developer', interests: ['backend'] },
        registration,
      ),
    ).toMatchObject({
      result: { action: 'accept' },
    });
  });

  it('does not check an accept without content, as SDK 1.x did not', async () => {
    expect(await expectSameOutcome(undefined as unknown as Content, object({ a: { type: 'string' } }, ['a']))).toEqual({
      result: { action: 'accept' },
    });
  });

  it.each([
    ['a missing required property', {}, object({ a: { type: 'string' } }, ['a', 'b'])],
    [
      'a wrong type, reported after enum when the type has keywords of its own',
      { a: 5 },
      object({ a: { type: 'string', minLength: 2, enum: ['x'] } }),
    ],
    ['a wrong type with only enum', { a: 5 }, object({ a: { type: 'string', enum: ['x'] } })],
    ['an integer that is not whole and out of range', { a: 2.5 }, object({ a: { type: 'integer', minimum: 3, maximum: 1 } })],
    ['a number out of range', { a: 11 }, object({ a: { type: 'number', minimum: 0, maximum: 10 } })],
    ['a string too long and off pattern', { a: 'abcdef' }, object({ a: { type: 'string', maxLength: 3, pattern: '^[0-9]+$' } })],
    ['a length counted in code points', { a: '😀' }, object({ a: { type: 'string', minLength: 2 } })],
    ['a unicode pattern', { a: '1' }, object({ a: { type: 'string', pattern: '^\\p{L}+$' } })],
    [
      'a titled option that is not offered',
      { a: 'z' },
      object({
        a: {
          type: 'string',
          oneOf: [
            { const: 'x', title: 'X' },
            { const: 'y', title: 'Y' },
          ],
        },
      }),
    ],
    [
      'a titled option offered twice',
      { a: 'x' },
      object({
        a: {
          type: 'string',
          oneOf: [
            { const: 'x', title: 'X' },
            { const: 'x', title: 'X2' },
            { const: 'y', title: 'Y' },
          ],
        },
      }),
    ],
    ['a legacy enumNames option', { a: 'z' }, object({ a: { type: 'string', enum: ['x'], enumNames: ['X'] } })],
    [
      'too many selections, one not offered',
      { a: ['x', 'q', 'y'] },
      object({ a: { type: 'array', maxItems: 2, items: { type: 'string', enum: ['x', 'y'] } } }),
    ],
    ['too few titled selections', { a: [] }, object({ a: { type: 'array', minItems: 1, items: { anyOf: [{ const: 'x', title: 'X' }] } } })],
    ['a selection that is not a list', { a: 'x' }, object({ a: { type: 'array', items: { type: 'string', enum: ['x'] } } })],
    ['a boolean that is a string', { a: 'true' }, object({ a: { type: 'boolean' } })],
    ['property names escaped as JSON pointers', { 'a/b~c': 1 }, object({ 'a/b~c': { type: 'string' } })],
    ['an invalid pattern', { a: 'x' }, object({ a: { type: 'string', pattern: '(' } })],
    ['a format an elicitation cannot name', { a: 'x' }, object({ a: { type: 'string', format: 'color' } })],
    [
      'a leap day',
      { a: '2024-02-29', b: '2023-02-29' },
      object({ a: { type: 'string', format: 'date' }, b: { type: 'string', format: 'date' } }),
    ],
    [
      'a leap second, in UTC or not',
      { a: '2016-12-31T23:59:60Z', b: '2016-12-31T22:59:60Z', c: '2017-01-01T00:59:60+01:00', d: '2016-12-31t18:59:60-05:00' },
      object({
        a: { type: 'string', format: 'date-time' },
        b: { type: 'string', format: 'date-time' },
        c: { type: 'string', format: 'date-time' },
        d: { type: 'string', format: 'date-time' },
      }),
    ],
    ['a date-time without a time zone', { a: '2026-08-01T18:00:00' }, object({ a: { type: 'string', format: 'date-time' } })],
    [
      'a uri without a scheme',
      { a: 'example.com/x', b: 'mailto:ada@example.com' },
      object({ a: { type: 'string', format: 'uri' }, b: { type: 'string', format: 'uri' } }),
    ],
    ['content with properties the schema does not name', { a: 'x', extra: ['y'] }, object({ a: { type: 'string' } })],
    [
      "content SDK 1.x's result schema refused (a list of numbers, an object, a number too large for JSON)",
      { a: [1], b: { c: 1 }, d: Infinity },
      object({ a: { type: 'array' } }),
    ],
  ] as const)('%s', async (_what, content, schema) => {
    await expectSameOutcome(content as Content, schema);
  });
});

// ---------------------------------------------------------------------------------------------
// property: random requested schemas of the spec's shapes, random answers

const NAMES = ['a', 'b', 'c/d'];
const OPTIONS = ['red', 'green', 'Red', ''];
const STRINGS = [
  ...OPTIONS,
  'ab',
  'abcdefgh',
  'é😀',
  'ada@example.com',
  'not-an-email',
  'a.b@c',
  'a..b@c.de',
  'x@localhost',
  'https://example.com/a?b=c#d',
  'example.com',
  'urn:isbn:0451450523',
  'http://[::1]:80/',
  'a:b c',
  '2024-02-29',
  '2023-02-29',
  '2026-13-01',
  'tomorrow',
  '2026-08-01T18:00:00Z',
  '2026-08-01 18:00:00.5+02:00',
  '2026-08-01T18:00:00',
  '2016-12-31T23:59:60Z',
  '2016-12-31T23:59:60+01:00',
  '2026-08-01T24:00:00Z',
];

const limit = fc.option(fc.integer({ min: 0, max: 6 }), { nil: undefined });
const options = fc.uniqueArray(fc.constantFrom(...OPTIONS), { minLength: 1, maxLength: 3 });
const titled = fc.array(fc.record({ const: fc.constantFrom(...OPTIONS), title: fc.constant('T') }), { minLength: 1, maxLength: 3 });
/** Drops the keys fast-check left undefined, as a server's literal would not have them. */
const defined = (schema: Record<string, unknown>) => Object.fromEntries(Object.entries(schema).filter(([, v]) => v !== undefined));

const propertySchema: fc.Arbitrary<Schema> = fc.oneof(
  fc
    .record({
      type: fc.constant('string'),
      minLength: limit,
      maxLength: limit,
      format: fc.option(fc.constantFrom('email', 'uri', 'date', 'date-time'), { nil: undefined }),
      pattern: fc.option(fc.constantFrom('^[a-z]+$', '\\d', '^\\p{L}'), { nil: undefined }),
    })
    .map(defined),
  fc.record({ type: fc.constant('string'), enum: options }),
  fc.record({ type: fc.constant('string'), oneOf: titled }),
  fc.record({ type: fc.constantFrom('number', 'integer'), minimum: limit, maximum: limit }).map(defined),
  fc.record({ type: fc.constant('boolean'), default: fc.boolean() }),
  fc
    .record({
      type: fc.constant('array'),
      minItems: limit,
      maxItems: limit,
      items: fc.record({ type: fc.constant('string'), enum: options }),
    })
    .map(defined),
  fc.record({ type: fc.constant('array'), minItems: limit, maxItems: limit, items: fc.record({ anyOf: titled }) }).map(defined),
);

const value: fc.Arbitrary<unknown> = fc.oneof(
  fc.constantFrom(...STRINGS),
  fc.string({ maxLength: 8 }),
  fc.integer({ min: -2, max: 8 }),
  fc.double({ min: -2, max: 8, noNaN: true }),
  fc.boolean(),
  fc.array(fc.constantFrom(...OPTIONS, 'blue'), { maxLength: 4 }),
);

const requestedSchema = fc
  .record({ properties: fc.dictionary(fc.constantFrom(...NAMES), propertySchema), required: fc.subarray([...NAMES, 'z']) })
  .map(({ properties, required }) => object(properties, required.length > 0 ? required : undefined));

const content = fc.dictionary(fc.constantFrom(...NAMES, 'other'), value);

describe("property: random schemas and answers give SDK 1.x's outcome", () => {
  it('accepts and refuses alike, with the same message, in every flavour', async () => {
    await fc.assert(
      fc.asyncProperty(requestedSchema, content, async (schema, answer) => {
        await expectSameOutcome(answer, schema);
      }),
      { seed: SEED, numRuns: NUM_RUNS },
    );
  });

  it('checks email, uri, date and date-time as ajv-formats\' "full" mode, which SDK 1.x loaded', async () => {
    // the module builds SDK 1.x's validator from the SDK's own ajv export, rather than copying it
    expect(stateModuleText('ts')).toContain("from '@modelcontextprotocol/server/validators/ajv'");
    await fc.assert(
      fc.asyncProperty(
        fc.constantFrom('email', 'uri', 'date', 'date-time'),
        fc.oneof(
          fc.constantFrom(...STRINGS),
          fc.string({ maxLength: 24 }),
          fc.stringMatching(/^\d{4}-\d\d-\d\d[Tt ]\d\d:\d\d:\d\d(\.\d)?([Zz]|[+-]\d\d(:?\d\d)?)?$/),
        ),
        async (format, answer) => {
          await expectSameOutcome({ a: answer }, object({ a: { type: 'string', format } }));
        },
      ),
      { seed: SEED, numRuns: NUM_RUNS },
    );
  });
});
