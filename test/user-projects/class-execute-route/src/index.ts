#!/usr/bin/env node
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { RouteTool } from './tools/RouteTool.js';
import { SummaryTool } from './tools/SummaryTool.js';

const server = new McpServer({ name: 'route-planner', version: '0.7.0' });
const tools = [new RouteTool(server), new SummaryTool(server)];
for (const tool of tools) tool.register();

await server.connect(new StdioServerTransport());
