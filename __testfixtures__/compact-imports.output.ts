// Minified-looking but hand-written: imports without spaces (from'...') are SDK 1.x imports like any other.
import { serveStdio } from '@modelcontextprotocol/server/stdio';
import {
  McpServer,
  inputRequired,
  type ElicitRequestFormParams
} from '@modelcontextprotocol/server';
import { elicitResult, resumeCall, verifyRequestState } from './mcp-migrate-state.js';

const s=new McpServer({name:'x',version:'1'}, { requestState: { verify: verifyRequestState } });
const aSchema: ElicitRequestFormParams['requestedSchema'] = {type:'object',properties:{}};
s.registerTool('a',{},async ctx => {
  // mcp-migrate: input_required phases (MCP 2026-07-28); state sealed by ./mcp-migrate-state.js
  const call = resumeCall(ctx, 'a', undefined);
  return call.run(async resumed => {
    if (resumed.phase === 0) {
      return call.suspend(1, {}, {
        r: inputRequired.elicit({message:'m',requestedSchema:aSchema}),
      });
    }
    if (resumed.phase === 1) {
      const r=elicitResult(ctx, 'r', aSchema);
      return{content:[{type:'text',text:r.action}]}
    }
    throw call.unknownPhase(resumed);
  });
});
serveStdio(() => s);
