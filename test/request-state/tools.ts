// A legacy (SDK 1.x) server whose tools carry state across an elicitation: what the migrated
// requestState module must keep to the caller (admin), to one use (transfer), in a store (big)
// and out of sight (secret), and the tools whose rounds a request may answer before they are asked
// (route: two rounds, the second a sampling request offering tools; survey: one question per round).
// Served by http.ts (Streamable HTTP, stateless) and stdio.ts.
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { z } from 'zod';

const confirm = { type: 'object', properties: { ok: { type: 'boolean' } }, required: ['ok'] } as const;
let transfers = 0;

export function buildServer(): McpServer {
  const server = new McpServer({ name: 'request-state-fixture', version: '1.0.0' });
  server.registerTool('admin', { inputSchema: { action: z.string() } }, async ({ action }, extra) => {
    const isAdmin = extra.authInfo?.extra?.sub === 'alice';
    const answer = await server.server.elicitInput({ message: `Really ${action}?`, requestedSchema: confirm });
    return { content: [{ type: 'text', text: `${action} (${answer.action}) as admin: ${isAdmin}` }] };
  });
  server.registerTool('transfer', { inputSchema: { amount: z.number() } }, async ({ amount }) => {
    const answer = await server.server.elicitInput({ message: `Transfer ${amount}?`, requestedSchema: confirm });
    if (answer.action === 'accept' && answer.content?.ok === true) transfers++;
    return { content: [{ type: 'text', text: `transfers: ${transfers}` }] };
  });
  server.registerTool('big', { inputSchema: { rows: z.number() } }, async ({ rows }) => {
    const table = Array.from({ length: rows }, (_, i) => `row ${i}: ${'x'.repeat(40)}`);
    const answer = await server.server.elicitInput({ message: `Keep ${table.length} rows?`, requestedSchema: confirm });
    return { content: [{ type: 'text', text: `${answer.action}: ${table.length} rows, last ${table[table.length - 1]?.slice(0, 8)}` }] };
  });
  server.registerTool('secret', { inputSchema: { service: z.string() } }, async ({ service }) => {
    const apiToken = process.env.FIXTURE_API_TOKEN ?? 'tok-123-very-secret';
    const answer = await server.server.elicitInput({ message: `Call ${service}?`, requestedSchema: confirm });
    return { content: [{ type: 'text', text: `${service} ${answer.action} with a token of ${apiToken.length} characters` }] };
  });
  server.registerTool('route', { inputSchema: { city: z.string() } }, async ({ city }) => {
    const answer = await server.server.elicitInput({ message: `Route to ${city}?`, requestedSchema: confirm });
    const plan = await server.server.createMessage({
      messages: [{ role: 'user', content: { type: 'text', text: `Plan a route to ${city} (${answer.action})` } }],
      maxTokens: 50,
      tools: [{ name: 'map', inputSchema: { type: 'object' } }],
    });
    const kinds = Array.isArray(plan.content) ? plan.content.map(block => block.type) : [plan.content.type];
    return { content: [{ type: 'text', text: `${city} ${answer.action}: ${kinds.join(',')}` }] };
  });
  server.registerTool('survey', { inputSchema: { questions: z.array(z.string()) } }, async ({ questions }) => {
    const results: string[] = [];
    for (const question of questions) {
      const answer = await server.server.elicitInput({ message: question, requestedSchema: confirm });
      results.push(`${question}=${answer.action}`);
    }
    return { content: [{ type: 'text', text: results.join(' ') }] };
  });
  return server;
}
