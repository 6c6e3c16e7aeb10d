import { registerBooking } from './booking.js';
import { registerEcho } from './echo.js';
import { registerRoots } from './roots.js';
import { registerSummaries } from './summaries.js';

/**
 * Register all server tools.
 * @param {import('@modelcontextprotocol/sdk/server/mcp.js').McpServer} server - MCP server to register tools on.
 * @param {{ hasCapability: (capability: 'sampling' | 'elicitation' | 'roots') => boolean }} capabilities - Capability checker for tool behavior.
 */
export function registerTools(server, capabilities) {
  registerEcho(server);
  registerSummaries(server, capabilities);
  registerBooking(server, capabilities);
  registerRoots(server, capabilities);
}
