// Minified-looking but hand-written: imports without spaces (from'...') are SDK 1.x imports like any other.
import{McpServer}from'@modelcontextprotocol/sdk/server/mcp.js';import{StdioServerTransport}from'@modelcontextprotocol/sdk/server/stdio.js';
const s=new McpServer({name:'x',version:'1'});
s.registerTool('a',{},async()=>{const r=await s.server.elicitInput({message:'m',requestedSchema:{type:'object',properties:{}}});return{content:[{type:'text',text:r.action}]}});
s.connect(new StdioServerTransport());
