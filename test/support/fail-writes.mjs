// Preloaded into the CLI (`node --import`) by tests: the rename that completes an atomic write fails
// with EIO for targets matching MCP_MIGRATE_TEST_FAIL_WRITES (a regular expression), as a full or
// failing disk would; every other file system call is untouched. Works as root, unlike a chmod.
import fs from 'node:fs';

const pattern = new RegExp(process.env.MCP_MIGRATE_TEST_FAIL_WRITES ?? '$^');
const rename = fs.promises.rename;
fs.promises.rename = async (from, to) => {
  if (pattern.test(String(to))) throw Object.assign(new Error(`EIO: i/o error, rename '${from}' -> '${to}'`), { code: 'EIO' });
  return rename(from, to);
};
