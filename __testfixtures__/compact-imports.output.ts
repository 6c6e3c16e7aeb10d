// Minified-looking but hand-written: imports without spaces (from'...') are SDK 1.x imports like any other.
import { serveStdio } from '@modelcontextprotocol/server/stdio';
import { McpServer, inputRequired, type ElicitRequestFormParams } from '@modelcontextprotocol/server';
import { elicitResult, resumeCall, verifyRequestState } from './mcp-migrate-state.js';

const s=new McpServer({name:'x',version:'1'}, { requestState: { verify: verifyRequestState } });
const aSchema: ElicitRequestFormParams['requestedSchema'] = {type:'object',properties:{}};
s.registerTool('a',{},async ctx => {
  // mcp-migrate: input_required phases (MCP 2026-07-28); state sealed by ./mcp-migrate-state.js
  type AStep = { step: 'awaiting-r' };
  const call = resumeCall<AStep>(ctx, 'a', undefined);
  return call.run(async resumed => {
    if (resumed.step === 'start') {
      return call.suspend({ step: 'awaiting-r' }, {
        r: inputRequired.elicit({message:'m',requestedSchema:aSchema}),
      });
    }
    if (resumed.step === 'awaiting-r') {
      const r=elicitResult(ctx, 'r', aSchema);
      return{content:[{type:'text',text:r.action}]}
    }
    throw call.unknownStep(resumed);
  });
});
serveStdio(() => s);
