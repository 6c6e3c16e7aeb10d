// Tab-indented, with a multi-line options literal: offsets stay characters, and the output keeps the tabs.
import { serveStdio } from '@modelcontextprotocol/server/stdio';
import { McpServer, inputRequired, type ElicitRequestFormParams } from '@modelcontextprotocol/server';
import { z } from 'zod';
import { elicitResult, resumeCall, rootsResult, verifyRequestState } from './mcp-migrate-state.js';

const server = new McpServer(
	{ name: 'tabs', version: '1.0.0' },
	{
		capabilities: { tools: {} },
		instructions: 'Asks before it acts',
		requestState: { verify: verifyRequestState },
	},
);

const confirmAnswerSchema: ElicitRequestFormParams['requestedSchema'] = { type: 'object', properties: { ok: { type: 'boolean' } } };
const moreSchema: ElicitRequestFormParams['requestedSchema'] = { type: 'object', properties: {} };

server.registerTool('confirm', { inputSchema: z.object({ what: z.string() }) }, async ({ what }, ctx) => {
	// mcp-migrate: input_required phases (MCP 2026-07-28); state sealed by ./mcp-migrate-state.js
	type ConfirmStep =
		| { step: 'awaiting-answer'; label: string }
		| { step: 'awaiting-more'; label: string };
	const call = resumeCall<ConfirmStep>(ctx, 'confirm', { what });
	return call.run(async resumed => {
		if (resumed.step === 'start') {
			const label = what.toUpperCase();
			return call.suspend({ step: 'awaiting-answer', label }, {
				answer: inputRequired.elicit({
					message: `Really ${label}?`,
					requestedSchema: confirmAnswerSchema,
				}),
			});
		}
		if (resumed.step === 'awaiting-answer') {
			const label = resumed.label;
			const answer = elicitResult(ctx, 'answer', confirmAnswerSchema);
			if (answer.action === 'accept') {
				return call.suspend({ step: 'awaiting-more', label }, {
					more: inputRequired.elicit({ message: 'Sure?', requestedSchema: moreSchema }),
				});
			}
			return { content: [{ type: 'text', text: `${label}: ${answer.action}` }] };
		}
		if (resumed.step === 'awaiting-more') {
			const label = resumed.label;
			{
				const more = elicitResult(ctx, 'more', moreSchema);
				return { content: [{ type: 'text', text: label + more.action }] };
			}
		}
		throw call.unknownStep(resumed);
	});
});

server.registerTool('count', {}, async ctx => {
	type CountStep = { step: 'awaiting-root-list' };
	const call = resumeCall<CountStep>(ctx, 'count', undefined);
	return call.run(async resumed => {
		if (resumed.step === 'start') {
			return call.suspend({ step: 'awaiting-root-list' }, {
				rootList: inputRequired.listRoots(),
				rootList2: inputRequired.listRoots(),
			});
		}
		if (resumed.step === 'awaiting-root-list') {
			const rootList = rootsResult(ctx, 'rootList');
			const rootList2 = rootsResult(ctx, 'rootList2');
			const both = [rootList, rootList2];
			return { content: [{ type: 'text', text: String(both.map(r => r.roots.length)) }] };
		}
		throw call.unknownStep(resumed);
	});
});

async function main() {
	serveStdio(() => server);
}

main();
