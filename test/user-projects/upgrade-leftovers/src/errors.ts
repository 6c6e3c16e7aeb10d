import { ErrorCode, McpError } from '@modelcontextprotocol/sdk/types.js';

/** A failure a tool reports: the JSON-RPC code and what went wrong. */
export interface ToolFailure {
  code: ErrorCode;
  message: string;
}

/** The one code our validation raises. */
export type InvalidParamsCode = ErrorCode.InvalidParams;

export function invalidParams(message: string): ToolFailure & { code: InvalidParamsCode } {
  return { code: ErrorCode.InvalidParams, message };
}

export function fail(failure: ToolFailure): never {
  throw new McpError(failure.code, failure.message);
}
