#!/usr/bin/env node
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { FeedbackTool } from './tools/feedback.js';
import { TranslateTool } from './tools/translate.js';

const server = new McpServer({ name: 'class-tools', version: '0.4.0' });
for (const Module of [TranslateTool, FeedbackTool]) new Module(server).register();

const transport = new StdioServerTransport();
await server.connect(transport);
