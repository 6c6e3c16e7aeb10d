/**
 * The bundled legacy example (examples/legacy-server) migrated by hand to
 * SDK 2.x and the 2026-07-28 multi-round-trip flow. It is the reference the
 * verify tests compare the legacy server against: it must give the same final
 * results, to a modern client and (through the SDK's legacy shim) to a
 * 2025-era client.
 *
 * Each handler switches on the phase carried in the sealed `requestState`:
 * the first entry asks for input and mints the phase plus every local that the
 * legacy code kept alive across its `await`; a re-entry restores those locals,
 * reads the answer and maps it back to the shape the legacy `await` returned
 * (decline and cancel included).
 */
import {
  createRequestStateCodec,
  inputRequired,
  inputResponse,
  McpServer,
  type CallToolResult,
  type CreateMessageResult,
  type ElicitResult,
  type GetPromptResult,
  type InputRequiredResult,
  type InputResponses,
  type ListRootsResult,
} from '@modelcontextprotocol/server';
import { serveStdio } from '@modelcontextprotocol/server/stdio';
import { z } from 'zod';

const TEST_KEY = 'mcp-migrate reference server test key (not a secret)';

type State =
  | { tool: 'greet'; args: unknown; phase: 'mood'; greeting: string }
  | { tool: 'summarize'; args: unknown; phase: 'sample' }
  | { tool: 'count-roots'; args: unknown; phase: 'roots' }
  | { tool: 'plan-trip'; args: unknown; phase: 'days'; startedAt: string }
  | { tool: 'plan-trip'; args: unknown; phase: 'ideas'; startedAt: string; days: number }
  | { tool: 'review'; args: unknown; phase: 'focus' };

const codec = createRequestStateCodec<State>({
  key: process.env.MCP_REQUEST_STATE_KEY ?? TEST_KEY,
  ttlSeconds: 600,
});

/** The state for this tool and these arguments, or `undefined` on a first entry; anything else is refused. */
function restore<T extends State['tool']>(raw: State | undefined, tool: T, args: unknown): Extract<State, { tool: T }> | undefined {
  if (raw === undefined) return undefined;
  if (raw.tool !== tool || JSON.stringify(raw.args) !== JSON.stringify(args)) {
    throw new Error(`requestState does not belong to ${tool} with these arguments`);
  }
  return raw as Extract<State, { tool: T }>;
}

/** What `server.elicitInput(...)` returned in the legacy code. */
function elicitAnswer(responses: InputResponses | Record<string, unknown> | undefined, key: string): ElicitResult {
  const view = inputResponse(responses, key);
  if (view.kind !== 'elicit') throw new Error(`missing elicitation answer "${key}"`);
  return view.content === undefined ? { action: view.action } : { action: view.action, content: view.content as ElicitResult['content'] };
}

/** What `server.createMessage(...)` returned in the legacy code. */
function samplingAnswer(responses: InputResponses | Record<string, unknown> | undefined, key: string): CreateMessageResult {
  const view = inputResponse(responses, key);
  if (view.kind !== 'sampling') throw new Error(`missing sampling answer "${key}"`);
  return view.result as CreateMessageResult;
}

/** What `server.listRoots()` returned in the legacy code. */
function rootsAnswer(responses: InputResponses | Record<string, unknown> | undefined, key: string): ListRootsResult {
  const view = inputResponse(responses, key);
  if (view.kind !== 'roots') throw new Error(`missing roots answer "${key}"`);
  return { roots: view.roots };
}

function text(value: string): CallToolResult {
  return { content: [{ type: 'text', text: value }] };
}

function sampledText(result: CreateMessageResult): string {
  return result.content.type === 'text' ? result.content.text : '(non-text)';
}

function buildServer(): McpServer {
  const server = new McpServer({ name: 'legacy-server-example', version: '1.0.0' }, { requestState: { verify: codec.verify } });

  server.registerTool(
    'greet',
    { description: 'Greets someone and asks how they feel', inputSchema: z.object({ name: z.string() }) },
    async (args, ctx): Promise<CallToolResult | InputRequiredResult> => {
      const state = restore(ctx.mcpReq.requestState<State>(), 'greet', args);
      if (state === undefined) {
        const greeting = `Hello, ${args.name}`;
        return inputRequired({
          inputRequests: {
            mood: inputRequired.elicit({
              message: 'How are you feeling?',
              requestedSchema: { type: 'object', properties: { mood: { type: 'string' } }, required: ['mood'] },
            }),
          },
          requestState: await codec.mint({ tool: 'greet', args, phase: 'mood', greeting }),
        });
      }
      const { greeting } = state;
      const answer = elicitAnswer(ctx.mcpReq.inputResponses, 'mood');
      if (answer.action !== 'accept') {
        return text(`${greeting}. No mood shared (${answer.action}).`);
      }
      return text(`${greeting}. You feel ${answer.content?.mood}.`);
    },
  );

  server.registerTool(
    'summarize',
    { description: 'Summarizes a text with the client model', inputSchema: z.object({ text: z.string() }) },
    async (args, ctx): Promise<CallToolResult | InputRequiredResult> => {
      const state = restore(ctx.mcpReq.requestState<State>(), 'summarize', args);
      if (state === undefined) {
        return inputRequired({
          inputRequests: {
            summary: inputRequired.createMessage({
              messages: [{ role: 'user', content: { type: 'text', text: `Summarize: ${args.text}` } }],
              maxTokens: 100,
            }),
          },
          requestState: await codec.mint({ tool: 'summarize', args, phase: 'sample' }),
        });
      }
      const result = samplingAnswer(ctx.mcpReq.inputResponses, 'summary');
      return text(`Summary: ${sampledText(result)}`);
    },
  );

  server.registerTool(
    'count-roots',
    { description: 'Counts the roots the client exposes' },
    async (ctx): Promise<CallToolResult | InputRequiredResult> => {
      const state = restore(ctx.mcpReq.requestState<State>(), 'count-roots', {});
      if (state === undefined) {
        return inputRequired({
          inputRequests: { roots: inputRequired.listRoots() },
          requestState: await codec.mint({ tool: 'count-roots', args: {}, phase: 'roots' }),
        });
      }
      const { roots } = rootsAnswer(ctx.mcpReq.inputResponses, 'roots');
      return text(`${roots.length} roots: ${roots.map(r => r.name ?? r.uri).join(', ')}`);
    },
  );

  server.registerTool(
    'plan-trip',
    {
      description: 'Asks for the length of a trip, then asks the model for ideas',
      inputSchema: z.object({ city: z.string() }),
    },
    async (args, ctx): Promise<CallToolResult | InputRequiredResult> => {
      const { city } = args;
      const state = restore(ctx.mcpReq.requestState<State>(), 'plan-trip', args);
      if (state === undefined) {
        const startedAt = 'day-' + city.length;
        return inputRequired({
          inputRequests: {
            days: inputRequired.elicit({
              message: `How many days in ${city}?`,
              requestedSchema: { type: 'object', properties: { days: { type: 'number' } }, required: ['days'] },
            }),
          },
          requestState: await codec.mint({ tool: 'plan-trip', args, phase: 'days', startedAt }),
        });
      }
      if (state.phase === 'days') {
        const { startedAt } = state;
        const answer = elicitAnswer(ctx.mcpReq.inputResponses, 'days');
        if (answer.action !== 'accept') {
          return text(`Trip to ${city} cancelled.`);
        }
        const days = Number(answer.content?.days);
        return inputRequired({
          inputRequests: {
            ideas: inputRequired.createMessage({
              messages: [{ role: 'user', content: { type: 'text', text: `Ideas for ${days} days in ${city}` } }],
              maxTokens: 200,
            }),
          },
          requestState: await codec.mint({ tool: 'plan-trip', args, phase: 'ideas', startedAt, days }),
        });
      }
      const { startedAt, days } = state;
      const ideas = samplingAnswer(ctx.mcpReq.inputResponses, 'ideas');
      return {
        content: [
          { type: 'text', text: `Plan for ${days} days in ${city}: ${sampledText(ideas)}` },
          { type: 'text', text: `Planning started at ${startedAt}.` },
        ],
      };
    },
  );

  server.registerPrompt(
    'review',
    { description: 'Asks what to focus on, then builds a review prompt', argsSchema: z.object({ code: z.string() }) },
    async (args, ctx): Promise<GetPromptResult | InputRequiredResult> => {
      const state = restore(ctx.mcpReq.requestState<State>(), 'review', args);
      if (state === undefined) {
        return inputRequired({
          inputRequests: {
            focus: inputRequired.elicit({
              message: 'What should the review focus on?',
              requestedSchema: { type: 'object', properties: { focus: { type: 'string' } }, required: ['focus'] },
            }),
          },
          requestState: await codec.mint({ tool: 'review', args, phase: 'focus' }),
        });
      }
      const answer = elicitAnswer(ctx.mcpReq.inputResponses, 'focus');
      const focus = answer.action === 'accept' ? String(answer.content?.focus) : 'anything';
      return {
        messages: [{ role: 'user', content: { type: 'text', text: `Review this code, focusing on ${focus}:\n\n${args.code}` } }],
      };
    },
  );

  return server;
}

serveStdio(() => buildServer());
