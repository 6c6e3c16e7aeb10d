#!/usr/bin/env node
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { createSurveyServer } from './server.js';

const server = createSurveyServer();
await server.connect(new StdioServerTransport());
console.error('survey-rounds listening on stdio');
