import { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import { StdioServerTransport } from "@modelcontextprotocol/sdk/server/stdio.js";

import { setupTools } from "./tools/index.js";

// Check for silent flag
const isSilent =
  process.argv.includes("--silent") || process.env.SILENT === "true";

// Conditional logging function
const log = (...args: any[]) => {
  if (!isSilent) {
    console.log(...args);
  }
};

// Function to create a new server instance
function createServer(): McpServer {
  const server = new McpServer(
    {
      name: "mcp-server",
      version: "1.0.0",
    },
    {
      capabilities: {
        logging: {},
      } as any,
    }
  );

  // Setup tools
  setupTools(server);

  return server;
}

async function stdioServer() {
  const server = createServer();
  const transport = new StdioServerTransport();
  await server.connect(transport);
  if (!isSilent) {
    console.error("Secure MCP Server running on stdio");
  }
}

if (process.argv.includes("--stdio")) {
  stdioServer().catch((error) => {
    console.error("Fatal error running server:", error);
    process.exit(1);
  });
}
