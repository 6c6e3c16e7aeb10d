// Tab-indented, with a multi-line options literal: offsets stay characters, and the output keeps the tabs.
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { z } from 'zod';

const server = new McpServer(
	{ name: 'tabs', version: '1.0.0' },
	{
		capabilities: { tools: {} },
		instructions: 'Asks before it acts',
	},
);

server.registerTool('confirm', { inputSchema: { what: z.string() } }, async ({ what }) => {
	const label = what.toUpperCase();
	const answer = await server.server.elicitInput({
		message: `Really ${label}?`,
		requestedSchema: { type: 'object', properties: { ok: { type: 'boolean' } } },
	});
	if (answer.action === 'accept') {
		const more = await server.server.elicitInput({ message: 'Sure?', requestedSchema: { type: 'object', properties: {} } });
		return { content: [{ type: 'text', text: label + more.action }] };
	}
	return { content: [{ type: 'text', text: `${label}: ${answer.action}` }] };
});

server.registerTool('count', {}, async () => {
	const both = [await server.server.listRoots(), await server.server.listRoots()];
	return { content: [{ type: 'text', text: String(both.map(r => r.roots.length)) }] };
});

async function main() {
	await server.connect(new StdioServerTransport());
}

main();
