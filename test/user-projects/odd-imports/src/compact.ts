import{McpServer}from'@modelcontextprotocol/sdk/server/mcp.js';
import{z}from'zod';
export function registerCompact(server:McpServer){server.registerTool('confirm',{description:'Confirm an action',inputSchema:{what:z.string()}},async({what})=>{const a=await server.server.elicitInput({message:`OK to ${what}?`,requestedSchema:{type:'object',properties:{ok:{type:'boolean'}},required:['ok']}});return{content:[{type:'text',text:a.action==='accept'&&a.content?.ok===true?`Doing ${what}.`:`Not doing ${what} (${a.action}).`}]};});}
