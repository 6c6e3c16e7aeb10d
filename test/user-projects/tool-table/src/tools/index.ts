import { deleteTool } from './delete.js';
import { addTool, listTool } from './notes.js';
import { SummarizeTool, WordCountTool } from './summarize.js';
import type { ToolDef } from './types.js';

export const tools: ToolDef[] = [listTool, addTool, deleteTool, new SummarizeTool(), new WordCountTool()];
