/**
 * One timed run of a command as a child process: wall time, exit code, output, and the peak resident
 * set size. The peak comes from GNU time (`/usr/bin/time -v`: the largest of the process and the
 * descendants it waited for) when present, else from sampling `/proc/<pid>/status` VmHWM of the child
 * itself (descendants not seen).
 */
import { spawn } from 'node:child_process';
import { existsSync, readFileSync, rmSync } from 'node:fs';
import path from 'node:path';

export const GNU_TIME = '/usr/bin/time';

export interface Sample {
  wallMs: number;
  /** Peak RSS in bytes, undefined when it could not be measured. */
  peakRss?: number;
  code: number | null;
  stdout: string;
  stderr: string;
}

export interface Command {
  cmd: string;
  args: string[];
  cwd: string;
  env?: NodeJS.ProcessEnv;
}

let hasGnuTime: boolean | undefined;
async function gnuTimeWorks(): Promise<boolean> {
  if (hasGnuTime !== undefined) return hasGnuTime;
  if (!existsSync(GNU_TIME)) return (hasGnuTime = false);
  hasGnuTime = await new Promise<boolean>(resolve => {
    const child = spawn(GNU_TIME, ['-v', 'true'], { stdio: ['ignore', 'ignore', 'pipe'] });
    let err = '';
    child.stderr.on('data', d => (err += d));
    child.on('error', () => resolve(false));
    child.on('close', code => resolve(code === 0 && /Maximum resident set size/.test(err)));
  });
  return hasGnuTime;
}

export async function measure(command: Command, scratch: string): Promise<Sample> {
  const useTime = await gnuTimeWorks();
  const timeFile = path.join(scratch, `time-${process.pid}-${Date.now()}.txt`);
  const [cmd, args] = useTime ? [GNU_TIME, ['-v', '-o', timeFile, command.cmd, ...command.args]] : [command.cmd, command.args];
  const started = performance.now();
  const child = spawn(cmd, args, { cwd: command.cwd, env: { ...process.env, ...command.env }, stdio: ['ignore', 'pipe', 'pipe'] });
  const out: Buffer[] = [];
  const err: Buffer[] = [];
  child.stdout.on('data', (d: Buffer) => out.push(d));
  child.stderr.on('data', (d: Buffer) => err.push(d));
  let hwm = 0;
  const sampler = useTime
    ? undefined
    : setInterval(() => {
        try {
          const m = /VmHWM:\s+(\d+) kB/.exec(readFileSync(`/proc/${child.pid}/status`, 'utf8'));
          if (m) hwm = Math.max(hwm, Number(m[1]) * 1024);
        } catch {
          /* exited */
        }
      }, 10);
  const code = await new Promise<number | null>((resolve, reject) => {
    child.on('error', reject);
    child.on('close', c => resolve(c));
  });
  const wallMs = performance.now() - started;
  if (sampler) clearInterval(sampler);
  let peakRss: number | undefined = hwm || undefined;
  if (useTime) {
    try {
      const m = /Maximum resident set size \(kbytes\):\s*(\d+)/.exec(readFileSync(timeFile, 'utf8'));
      if (m) peakRss = Number(m[1]) * 1024;
    } finally {
      rmSync(timeFile, { force: true });
    }
  }
  return { wallMs, peakRss, code, stdout: Buffer.concat(out).toString('utf8'), stderr: Buffer.concat(err).toString('utf8') };
}

export function median(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  const mid = Math.floor(s.length / 2);
  return s.length % 2 ? s[mid] : (s[mid - 1] + s[mid]) / 2;
}

export async function peakMethod(): Promise<string> {
  return (await gnuTimeWorks())
    ? "/usr/bin/time -v (max RSS of the process tree's largest process)"
    : '/proc/<pid>/status VmHWM of the child';
}
