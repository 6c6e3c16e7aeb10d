/**
 * The cheap text pre-filter, in a module with no imports so that a run over files with nothing
 * to migrate never loads the parser, the type checker or the official codemod.
 */

/** Names whose presence makes a file worth analysing for server-initiated requests. */
export const TRIGGER_PATTERN = /\b(createMessage|elicitInput|listRoots|sendRequest|requestSampling|UrlElicitationRequiredError|mcpReq)\b/;

/** Files that import the SDK: where servers are built and connected, and what the v1-to-v2 upgrade touches. */
export const MCP_TEXT = /@modelcontextprotocol\//;

export function isCandidate(text: string): boolean {
  return MCP_TEXT.test(text) || TRIGGER_PATTERN.test(text);
}
