import { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import { setupClientInteractionTools } from "./client-interaction.js";
import { setupElicitationTools } from "./elicitation.js";

export function setupTools(server: McpServer) {
  setupClientInteractionTools(server);
  setupElicitationTools(server);
}
