// Minified-looking but hand-written: imports without spaces (from'...') are SDK 1.x imports like any other.
import { serveStdio } from '@modelcontextprotocol/server/stdio';
import { McpServer } from '@modelcontextprotocol/server';
import { ask, resumable, verifyRequestState } from './mcp-migrate-state.js';

const s=new McpServer({name:'x',version:'1'}, { requestState: { verify: verifyRequestState } });
resumable(s).registerTool('a',{},async()=>{const r=await ask(s.server, 'r').elicitInput({message:'m',requestedSchema:{type:'object',properties:{}}});return{content:[{type:'text',text:r.action}]}});
serveStdio(() => s);
