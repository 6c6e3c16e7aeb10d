// Preloaded into the CLI (`node --import`) by tests: every module the process resolves is appended, one URL
// a line, to the file MCP_MIGRATE_TEST_LOADS names, so that a test can say which modules a command loaded
// (not how long it took: that depends on the machine).
import { register } from 'node:module';

register(
  `data:text/javascript,${encodeURIComponent(`
import fs from 'node:fs';
const out = ${JSON.stringify(process.env.MCP_MIGRATE_TEST_LOADS ?? '')};
export async function resolve(specifier, context, next) {
  const resolved = await next(specifier, context);
  if (out) fs.appendFileSync(out, resolved.url + '\\n');
  return resolved;
}
`)}`,
);
