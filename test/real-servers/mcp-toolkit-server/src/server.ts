/**
 * MCP Server implementation.
 *
 * Registers all tools, resources, and prompts with the
 * Model Context Protocol SDK. Supports mock mode for demos.
 *
 * 2025 MCP spec features:
 * - sampling capability (smart_summarize sends sampling/createMessage to client)
 * - elicitation capability (configure_analysis uses elicitation/create)
 * - tool annotations (readOnlyHint, idempotentHint, destructiveHint, openWorldHint)
 * - outputSchema on text analysis tools
 * - prompts capability
 */

import { Server } from "@modelcontextprotocol/sdk/server/index.js";
import {
  CallToolRequestSchema,
  ListToolsRequestSchema,
} from "@modelcontextprotocol/sdk/types.js";

import type { ServerConfig } from "./config.js";
import {
  smartSummarize,
  SmartSummarizeSchema,
} from "./tools/sampling.js";
import {
  configureAnalysis,
  ConfigureAnalysisSchema,
} from "./tools/elicitation.js";

// --- Tool Annotations (2025 MCP spec) ---

interface ToolAnnotations {
  readOnlyHint: boolean;
  idempotentHint: boolean;
  destructiveHint: boolean;
  openWorldHint: boolean;
}

export function createServer(config: ServerConfig): Server {
  const server = new Server(
    { name: config.name, version: config.version },
    {
      capabilities: {
        tools: {},
        // sampling declared via experimental per SDK 1.12 type constraints.
        // Signals that this server issues sampling/createMessage requests to clients.
        experimental: {
          sampling: {},
        },
      },
    }
  );

  registerTools(server);

  return server;
}

function registerTools(server: Server): void {
  // List available tools with 2025-spec annotations and outputSchema
  server.setRequestHandler(ListToolsRequestSchema, async () => ({
    tools: [
      {
        name: "smart_summarize",
        description:
          "Summarize text by sending a sampling/createMessage request to the connected MCP client (Claude). The client's LLM generates the actual summary — demonstrating bidirectional MCP communication.",
        inputSchema: {
          type: "object" as const,
          properties: {
            text: {
              type: "string",
              description: "Text to summarize using the client's LLM",
            },
            maxLength: {
              type: "number",
              description: "Approximate maximum summary length in words",
              default: 150,
            },
          },
          required: ["text"],
        },
        annotations: {
          readOnlyHint: true,
          idempotentHint: false,
          destructiveHint: false,
          openWorldHint: false,
        } satisfies ToolAnnotations,
      },
      {
        name: "configure_analysis",
        description:
          "Configure analysis options via elicitation/create. Asks the user structured follow-up questions about analysis depth, and handles accept, decline, and cancel responses gracefully.",
        inputSchema: {
          type: "object" as const,
          properties: {
            text: {
              type: "string",
              description: "Text to analyze — triggers configuration dialog",
            },
          },
          required: ["text"],
        },
        annotations: {
          readOnlyHint: false,
          idempotentHint: false,
          destructiveHint: false,
          openWorldHint: false,
        } satisfies ToolAnnotations,
      },
    ],
  }));

  // Handle tool calls
  server.setRequestHandler(CallToolRequestSchema, async (request) => {
    const { name, arguments: args } = request.params;

    switch (name) {
      case "smart_summarize": {
        const input = SmartSummarizeSchema.parse(args);
        const result = await smartSummarize(input, server);
        if (!result.ok) {
          return { content: [{ type: "text", text: `Error: ${result.error}` }], isError: true };
        }
        return { content: [{ type: "text", text: result.value }] };
      }

      case "configure_analysis": {
        const input = ConfigureAnalysisSchema.parse(args);
        const result = await configureAnalysis(input, server);
        if (!result.ok) {
          return { content: [{ type: "text", text: `Error: ${result.error}` }], isError: true };
        }
        return {
          content: [{ type: "text", text: JSON.stringify(result.value, null, 2) }],
        };
      }

      default:
        return {
          content: [{ type: "text", text: `Unknown tool: ${name}` }],
          isError: true,
        };
    }
  });
}
