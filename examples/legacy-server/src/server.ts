/**
 * A small MCP server in the style of the 2025 protocol era (SDK 1.x):
 * each tool asks the connected client for input by sending a request of its
 * own (elicitation, sampling, roots) and awaiting the answer mid-call.
 *
 * Run it with `npx tsx examples/legacy-server/src/server.ts` (stdio).
 */
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { z } from 'zod';

const server = new McpServer({ name: 'legacy-server-example', version: '1.0.0' });

server.registerTool(
  'greet',
  {
    description: 'Greets someone and asks how they feel',
    inputSchema: { name: z.string() },
  },
  async ({ name }) => {
    const greeting = `Hello, ${name}`;
    const answer = await server.server.elicitInput({
      message: 'How are you feeling?',
      requestedSchema: {
        type: 'object',
        properties: { mood: { type: 'string' } },
        required: ['mood'],
      },
    });
    if (answer.action !== 'accept') {
      return { content: [{ type: 'text', text: `${greeting}. No mood shared (${answer.action}).` }] };
    }
    return { content: [{ type: 'text', text: `${greeting}. You feel ${answer.content?.mood}.` }] };
  },
);

server.registerTool(
  'summarize',
  {
    description: 'Summarizes a text with the client model',
    inputSchema: { text: z.string() },
  },
  async ({ text }) => {
    const result = await server.server.createMessage({
      messages: [{ role: 'user', content: { type: 'text', text: `Summarize: ${text}` } }],
      maxTokens: 100,
    });
    const summary = result.content.type === 'text' ? result.content.text : '(non-text)';
    return { content: [{ type: 'text', text: `Summary: ${summary}` }] };
  },
);

server.registerTool(
  'count-roots',
  {
    description: 'Counts the roots the client exposes',
  },
  async () => {
    const { roots } = await server.server.listRoots();
    return {
      content: [{ type: 'text', text: `${roots.length} roots: ${roots.map((r) => r.name ?? r.uri).join(', ')}` }],
    };
  },
);

server.registerTool(
  'plan-trip',
  {
    description: 'Asks for the length of a trip, then asks the model for ideas',
    inputSchema: { city: z.string() },
  },
  async ({ city }) => {
    const startedAt = 'day-' + city.length;
    const answer = await server.server.elicitInput({
      message: `How many days in ${city}?`,
      requestedSchema: {
        type: 'object',
        properties: { days: { type: 'number' } },
        required: ['days'],
      },
    });
    if (answer.action !== 'accept') {
      return { content: [{ type: 'text', text: `Trip to ${city} cancelled.` }] };
    }
    const days = Number(answer.content?.days);
    const ideas = await server.server.createMessage({
      messages: [{ role: 'user', content: { type: 'text', text: `Ideas for ${days} days in ${city}` } }],
      maxTokens: 200,
    });
    const text = ideas.content.type === 'text' ? ideas.content.text : '(non-text)';
    return {
      content: [
        { type: 'text', text: `Plan for ${days} days in ${city}: ${text}` },
        { type: 'text', text: `Planning started at ${startedAt}.` },
      ],
    };
  },
);

server.registerPrompt(
  'review',
  {
    description: 'Asks what to focus on, then builds a review prompt',
    argsSchema: { code: z.string() },
  },
  async ({ code }) => {
    const answer = await server.server.elicitInput({
      message: 'What should the review focus on?',
      requestedSchema: {
        type: 'object',
        properties: { focus: { type: 'string' } },
        required: ['focus'],
      },
    });
    const focus = answer.action === 'accept' ? String(answer.content?.focus) : 'anything';
    return {
      messages: [
        {
          role: 'user',
          content: { type: 'text', text: `Review this code, focusing on ${focus}:\n\n${code}` },
        },
      ],
    };
  },
);

async function main(): Promise<void> {
  await server.connect(new StdioServerTransport());
}

main().catch((error) => {
  console.error('legacy-server-example failed:', error);
  process.exit(1);
});
