/** What the server did outside itself, one line per call to the tracker and per audit line, in a file the tally reads. */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

const LOG = process.env.PROJECT_DESK_LOG ?? path.join(os.tmpdir(), `project-desk-${process.pid}.log`);
fs.writeFileSync(LOG, '');

export function recordEffect(line: string): void {
  fs.appendFileSync(LOG, `${line}\n`);
}

export function audit(line: string): void {
  fs.appendFileSync(LOG, `AUDIT ${line}\n`);
}

/** The effects so far, counted by kind (the tracker's method and path, or the audit line). */
export function tally(): Record<string, number> {
  const counts: Record<string, number> = {};
  for (const line of fs.readFileSync(LOG, 'utf8').split('\n').filter(Boolean)) {
    const kind = line.replace(/ p-[0-9a-f]{8}/g, ' <id>').replace(/\/p-[0-9a-f]{8}\//g, '/<id>/');
    counts[kind] = (counts[kind] ?? 0) + 1;
  }
  return counts;
}
