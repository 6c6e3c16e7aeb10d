#!/usr/bin/env node
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { Mutex } from 'async-mutex';
import { z } from 'zod';
import { tracer, withTimeout } from './util/tracing.js';

const server = new McpServer({ name: 'ops-console', version: '5.2.0' });
const settings = { replicas: 2, region: 'eu-west' };
const settingsLock = new Mutex();
const restartSchema = { type: 'object' as const, properties: { now: { type: 'boolean' as const } }, required: ['now'] };

server.registerTool('explain_incident', { description: 'Explain an incident', inputSchema: { id: z.string() } }, async ({ id }) => {
  return tracer.span('explain_incident', async span => {
    span.attributes.incident = id;
    const reply = await server.server.createMessage({
      messages: [{ role: 'user', content: { type: 'text', text: `Explain incident ${id} in one line.` } }],
      maxTokens: 50,
    });
    span.attributes.model = reply.model;
    return { content: [{ type: 'text', text: reply.content.type === 'text' ? reply.content.text : '' }] };
  });
});

server.registerTool('confirm_restart', { description: 'Restart a service after confirmation', inputSchema: { service: z.string() } }, async ({ service }) => {
  const question = { message: `Restart ${service} now?`, requestedSchema: restartSchema };
  const answer = await withTimeout(async () => server.server.elicitInput(question), 60_000);
  if (answer.action === 'accept' && answer.content?.now === true) {
    return { content: [{ type: 'text', text: `Restarting ${service}.` }] };
  }
  return { content: [{ type: 'text', text: `${service} left running (${answer.action}).` }] };
});

server.registerTool('scale', { description: 'Change the replica count', inputSchema: {} }, async () => {
  const result = await settingsLock.runExclusive(async () => {
    const answer = await server.server.elicitInput({
      message: `Replicas (now ${settings.replicas})?`,
      requestedSchema: { type: 'object', properties: { replicas: { type: 'integer', minimum: 1, maximum: 9 } }, required: ['replicas'] },
    });
    if (answer.action !== 'accept') return `unchanged (${answer.action})`;
    settings.replicas = Number(answer.content?.replicas);
    return `now ${settings.replicas}`;
  });
  return { content: [{ type: 'text', text: `Replicas ${result}.` }] };
});

await server.connect(new StdioServerTransport());
