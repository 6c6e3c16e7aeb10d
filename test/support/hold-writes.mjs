// Preloaded into the CLI (`node --import`) by tests: the rename that completes an atomic write of a
// target matching MCP_MIGRATE_TEST_HOLD_WRITES (a regular expression) never completes, after saying
// `HOLD <target>` on stderr, so that a test can interrupt the run in the middle of its writes at a
// known point, without depending on timing.
import fs from 'node:fs';

const pattern = new RegExp(process.env.MCP_MIGRATE_TEST_HOLD_WRITES ?? '$^');
const rename = fs.promises.rename;
fs.promises.rename = async (from, to) => {
  if (!pattern.test(String(to))) return rename(from, to);
  process.stderr.write(`HOLD ${to}\n`);
  // A pending promise alone would let the process end: a timer keeps it waiting for the signal.
  return new Promise(() => setInterval(() => {}, 60_000));
};
