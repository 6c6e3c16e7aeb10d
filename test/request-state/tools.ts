// A legacy (SDK 1.x) server whose tools ask the client mid-call: what the migrated requestState module
// must keep to the caller (admin), to one use (transfer, and remove: two questions, then a write), to
// the question asked (buy: its question names a price another tool may change), out of sight (secret:
// a session token its journaled login returns), in a store (big: journaled rows over 16 KiB), and the
// tools whose rounds a request may answer before they are asked (route: two rounds, the second a
// sampling request offering tools; survey: one question per round). Every write (remove's, buy's,
// archive's before and after its question) is a line appended to FIXTURE_LOG, which the tests count
// after each attack. Served by http.ts (Streamable HTTP, stateless) and stdio.ts.
import fs from 'node:fs';
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { z } from 'zod';

const confirm = { type: 'object' as const, properties: { ok: { type: 'boolean' as const } }, required: ['ok'] };
const LOG = process.env.FIXTURE_LOG;
let transfers = 0;
let logins = 0;
let queries = 0;
/** What buy charges: set by another tool, so that it may change between buy's rounds. */
let price = 5;

/** One line in the log the tests read: the server's only side effect they can see from outside. */
function write(line: string): void {
  if (LOG) fs.appendFileSync(LOG, `${line}\n`);
}

/** A login that hands out a session token (an effect: its token must not reach the client readable). */
async function login(service: string): Promise<{ service: string; token: string }> {
  logins++;
  return { service, token: `${process.env.FIXTURE_API_TOKEN ?? 'tok-123-very-secret'}-${logins}` };
}

/** A query whose rows are large (an effect: a count of the queries made, which the rows name). */
async function query(rows: number): Promise<string[]> {
  queries++;
  return Array.from({ length: rows }, (_, i) => `row ${i} of query ${queries}: ${'x'.repeat(40)}`);
}

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
  server.registerTool('remove', { inputSchema: { file: z.string() } }, async ({ file }) => {
    const sure = await server.server.elicitInput({ message: `Remove ${file}?`, requestedSchema: confirm });
    if (sure.action !== 'accept' || sure.content?.ok !== true) return { content: [{ type: 'text', text: `kept ${file}` }] };
    const really = await server.server.elicitInput({ message: `Really remove ${file}? It cannot be undone.`, requestedSchema: confirm });
    if (really.action !== 'accept' || really.content?.ok !== true) return { content: [{ type: 'text', text: `kept ${file}` }] };
    write(`removed ${file}`);
    return { content: [{ type: 'text', text: `removed ${file}` }] };
  });
  server.registerTool('archive', { inputSchema: { file: z.string() } }, async ({ file }) => {
    write(`archived ${file}`);
    const answer = await server.server.elicitInput({ message: `Also notify the owner of ${file}?`, requestedSchema: confirm });
    if (answer.action === 'accept') write(`notified ${file}`);
    return { content: [{ type: 'text', text: `archived ${file} (${answer.action})` }] };
  });
  server.registerTool('set-price', { inputSchema: { price: z.number() } }, async args => {
    price = args.price;
    return { content: [{ type: 'text', text: `price: ${price}` }] };
  });
  server.registerTool('buy', { inputSchema: { item: z.string() } }, async ({ item }) => {
    const answer = await server.server.elicitInput({ message: `Buy ${item} at ${price}?`, requestedSchema: confirm });
    if (answer.action !== 'accept' || answer.content?.ok !== true) return { content: [{ type: 'text', text: `not bought` }] };
    write(`bought ${item} at ${price}`);
    return { content: [{ type: 'text', text: `bought ${item} at ${price}` }] };
  });
  server.registerTool('big', { inputSchema: { rows: z.number() } }, async ({ rows }) => {
    const table = await query(rows);
    const answer = await server.server.elicitInput({ message: `Keep ${table.length} rows?`, requestedSchema: confirm });
    return { content: [{ type: 'text', text: `${answer.action}: ${table.length} rows, last ${table[table.length - 1]?.slice(0, 7)}` }] };
  });
  server.registerTool('secret', { inputSchema: { service: z.string() } }, async ({ service }) => {
    const session = await login(service);
    const answer = await server.server.elicitInput({ message: `Call ${service}?`, requestedSchema: confirm });
    return { content: [{ type: 'text', text: `${service} ${answer.action} with a token of ${session.token.length} characters` }] };
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
