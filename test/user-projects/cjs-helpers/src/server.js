const { McpServer } = require('@modelcontextprotocol/sdk/server/mcp.js');

const server = new McpServer({ name: 'cjs-helpers', version: '0.6.1' });

module.exports = { server };
