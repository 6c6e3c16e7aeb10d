import { addTool } from './add.js';
import { listTool } from './list.js';
import { removeTool } from './remove.js';
import type { ToolDef } from './types.js';
import { whoamiTool } from './whoami.js';

export const defs: ToolDef[] = [listTool, addTool, removeTool, whoamiTool];

export function findDef(name: string): ToolDef | undefined {
  return defs.find(d => d.name === name);
}

export { ToolInputError, type ToolDef } from './types.js';
