import { McpServer, inputRequired, type ElicitRequestFormParams } from '@modelcontextprotocol/server';
import { z } from 'zod';
import {
  elicitResult,
  requireClientSupport,
  resumeCall,
  rootsResult,
  samplingResult,
  verifyRequestState,
} from './mcp-migrate-state.js';

export const server = new McpServer({ name: 'fixture', version: '1.0.0' }, { requestState: { verify: verifyRequestState } });

const reviewFlagsSchema: ElicitRequestFormParams['requestedSchema'] = { type: 'object', properties: { keep: { type: 'boolean' } }, required: ['keep'] };

// One question per key of the record: the loop resumes at the key it asked about.
server.registerTool('review-flags', { inputSchema: z.object({ flags: z.record(z.string(), z.boolean()) }) }, async ({ flags }, ctx) => {
  // mcp-migrate: input_required phases (MCP 2026-07-28); state sealed by ./mcp-migrate-state.js
  type ReviewFlagsStep = { step: 'awaiting-answer'; kept: string[]; mcpKeys: string[]; mcpIndex: number };
  const askForAnswer = (flag: string) => inputRequired.elicit({
    message: `Keep ${flag} (now ${flags[flag] ? 'on' : 'off'})?`,
    requestedSchema: reviewFlagsSchema,
  });
  const call = resumeCall<ReviewFlagsStep>(ctx, 'review-flags', { flags });
  return call.run(async resumed => {
    if (resumed.step === 'start') {
      const kept: string[] = [];
      const mcpKeys: string[] = [];
      for (const flag in flags) mcpKeys.push(flag);
      if (mcpKeys.length > 0) {
        const mcpIndex = 0;
        const flag = mcpKeys[mcpIndex];
        return call.suspend({ step: 'awaiting-answer', kept, mcpKeys, mcpIndex }, {
          answer: askForAnswer(flag),
        });
      }
      return { content: [{ type: 'text', text: `kept ${kept.length}: ${kept.join(', ')}` }] };
    }
    if (resumed.step === 'awaiting-answer') {
      const kept = resumed.kept;
      const mcpKeys = resumed.mcpKeys;
      for (let mcpIndex = resumed.mcpIndex, mcpFirst = true; mcpIndex < mcpKeys.length; mcpIndex++, mcpFirst = false) {
        const flag = mcpKeys[mcpIndex];
        if (mcpFirst) {
          const answer = elicitResult(ctx, 'answer', reviewFlagsSchema);
          if (answer.action === 'cancel') break;
          if (answer.action !== 'accept') continue;
          if (answer.content?.keep) kept.push(flag);
        } else {
          return call.suspend({ step: 'awaiting-answer', kept, mcpKeys, mcpIndex }, {
            answer: askForAnswer(flag),
          });
        }
      }
      return { content: [{ type: 'text', text: `kept ${kept.length}: ${kept.join(', ')}` }] };
    }
    throw call.unknownStep(resumed);
  });
});

// for await over a plain array: each element is awaited, then sampled.
server.registerTool('tag-files', { inputSchema: z.object({ files: z.array(z.string()) }) }, async ({ files }, ctx) => {
  type TagFilesStep = { step: 'awaiting-result'; mcpItems: string[]; tags: string[]; mcpIndex: number };
  const askForResult = (file: string) => inputRequired.createMessage({
    messages: [{ role: 'user', content: { type: 'text', text: `Tag ${file}` } }],
    maxTokens: 10,
  });
  const call = resumeCall<TagFilesStep>(ctx, 'tag-files', { files });
  return call.run(async resumed => {
    if (resumed.step === 'start') {
      const tags: string[] = [];
      const mcpItems = [...files];
      if (mcpItems.length > 0) {
        const mcpIndex = 0;
        const file = await mcpItems[mcpIndex];
        return call.suspend({ step: 'awaiting-result', mcpItems, tags, mcpIndex }, {
          result: askForResult(file),
        });
      }
      return { content: [{ type: 'text', text: tags.join(', ') || 'no files' }] };
    }
    if (resumed.step === 'awaiting-result') {
      const mcpItems = resumed.mcpItems;
      const tags = resumed.tags;
      for (let mcpIndex = resumed.mcpIndex, mcpFirst = true; mcpIndex < mcpItems.length; mcpIndex++, mcpFirst = false) {
        const file = await mcpItems[mcpIndex];
        if (mcpFirst) {
          const result = samplingResult(ctx, 'result');
          tags.push(`${file}=${result.content.type === 'text' ? result.content.text : '?'}`);
        } else {
          return call.suspend({ step: 'awaiting-result', mcpItems, tags, mcpIndex }, {
            result: askForResult(file),
          });
        }
      }
      return { content: [{ type: 'text', text: tags.join(', ') || 'no files' }] };
    }
    throw call.unknownStep(resumed);
  });
});

// A for...in around a try/finally: the finally runs once per key, on the round that finishes it.
server.registerTool('audit', { inputSchema: z.object({ owners: z.record(z.string(), z.string()) }) }, async ({ owners }, ctx) => {
  type AuditStep = { step: 'awaiting-roots'; log: string[]; mcpKeys: string[]; mcpIndex: number };
  const call = resumeCall<AuditStep>(ctx, 'audit', { owners });
  return call.run(async resumed => {
    if (resumed.step === 'start') {
      let mcpSuspended = false; // true once this round suspends: a finally then waits for the round that leaves its try
      const log: string[] = [];
      const mcpKeys: string[] = [];
      for (const path in owners) mcpKeys.push(path);
      if (mcpKeys.length > 0) {
        const mcpIndex = 0;
        const path = mcpKeys[mcpIndex];
        try {
          requireClientSupport(ctx, ['roots']);
          const mcpRound = await call.suspend({ step: 'awaiting-roots', log, mcpKeys, mcpIndex }, {
            roots: inputRequired.listRoots(),
          });
          mcpSuspended = true;
          return mcpRound;
        } finally {
          if (!mcpSuspended) {
            log.push(`checked ${path}`);
          }
        }
      }
      return { content: [{ type: 'text', text: log.join('; ') || 'nothing to audit' }] };
    }
    if (resumed.step === 'awaiting-roots') {
      let mcpSuspended = false; // true once this round suspends: a finally then waits for the round that leaves its try
      const log = resumed.log;
      const mcpKeys = resumed.mcpKeys;
      for (let mcpIndex = resumed.mcpIndex, mcpFirst = true; mcpIndex < mcpKeys.length; mcpIndex++, mcpFirst = false) {
        const path = mcpKeys[mcpIndex];
        if (mcpFirst) {
          try {
            const { roots } = rootsResult(ctx, 'roots');
            if (roots.length === 0) continue;
            log.push(`${path} (${owners[path]}) in ${roots.length} roots`);
          } finally {
            log.push(`checked ${path}`);
          }
        } else {
          try {
            requireClientSupport(ctx, ['roots']);
            const mcpRound = await call.suspend({ step: 'awaiting-roots', log, mcpKeys, mcpIndex }, {
              roots: inputRequired.listRoots(),
            });
            mcpSuspended = true;
            return mcpRound;
          } finally {
            if (!mcpSuspended) {
              log.push(`checked ${path}`);
            }
          }
        }
      }
      return { content: [{ type: 'text', text: log.join('; ') || 'nothing to audit' }] };
    }
    throw call.unknownStep(resumed);
  });
});
