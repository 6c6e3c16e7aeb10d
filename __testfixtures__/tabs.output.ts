// Tab-indented, with a multi-line options literal: offsets stay characters, and the output keeps the tabs.
import { serveStdio } from '@modelcontextprotocol/server/stdio';
import { McpServer } from '@modelcontextprotocol/server';
import { z } from 'zod';
import { ask, resumable, verifyRequestState } from './mcp-migrate-state.js';

const server = new McpServer(
	{ name: 'tabs', version: '1.0.0' },
	{
		capabilities: { tools: {} },
		instructions: 'Asks before it acts',
		requestState: { verify: verifyRequestState },
	},
);

resumable(server).registerTool('confirm', { inputSchema: z.object({ what: z.string() }) }, async ({ what }) => {
	const label = what.toUpperCase();
	const answer = await ask(server.server, 'answer').elicitInput({
		message: `Really ${label}?`,
		requestedSchema: { type: 'object', properties: { ok: { type: 'boolean' } } },
	});
	if (answer.action === 'accept') {
		const more = await ask(server.server, 'more').elicitInput({ message: 'Sure?', requestedSchema: { type: 'object', properties: {} } });
		return { content: [{ type: 'text', text: label + more.action }] };
	}
	return { content: [{ type: 'text', text: `${label}: ${answer.action}` }] };
});

resumable(server).registerTool('count', {}, async () => {
	const both = [await ask(server.server).listRoots(), await ask(server.server).listRoots()];
	return { content: [{ type: 'text', text: String(both.map(r => r.roots.length)) }] };
});

async function main() {
	serveStdio(() => server);
}

main();
