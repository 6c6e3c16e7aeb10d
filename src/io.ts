/**
 * Reading and writing sources byte-faithfully.
 *
 * The pipeline sees LF text without a BOM. Everything needed to put the original bytes back is kept in
 * `SourceMeta`: BOM, dominant line ending, final-newline state and file mode. For a file with one kind of
 * line ending, `encodeSource(decodeSource(bytes).text, meta)` is `bytes` again, byte for byte; a file with
 * mixed endings is written with its dominant one (only ever when the run changes that file).
 */
import { createHash, randomBytes } from 'node:crypto';
import { closeSync, openSync, promises as fs, readdirSync, readFileSync, readSync, rmSync, statSync } from 'node:fs';
import { isUtf8 } from 'node:buffer';
import path from 'node:path';

/** Files above this size are not read. */
export const MAX_SOURCE_BYTES = 2 * 1024 * 1024;
/** A line longer than this marks a file as minified or generated. */
export const MAX_LINE_LENGTH = 5000;
/** An average line length above this (in a file of at least MIN_CHARS_FOR_AVERAGE) marks a file as minified. */
export const MAX_AVERAGE_LINE_LENGTH = 500;
const MIN_CHARS_FOR_AVERAGE = 2000;
/**
 * A line at least this long with PACKED_STATEMENTS statements packed without whitespace (`;var`,
 * `;return`) is minified code: a one-line bundle too small for the limits above. Hand-written code
 * puts a space or a line break after `;` (a `for (;;)` header aside), and long data lines (base64,
 * JSON) have no `;` followed by a name.
 */
export const PACKED_LINE_LENGTH = 200;
export const PACKED_STATEMENTS = 3;
/** Names minifiers and bundlers give their output: never rewritten, whatever the content. */
const MINIFIED_NAME = /(?:[.-]min|\.bundle|\.packed)\.[cm]?jsx?$/i;

/** Mode for files the run creates. */
export const NEW_FILE_MODE = 0o644;

export interface SourceMeta {
  /** The file started with a UTF-8 byte order mark. */
  bom: boolean;
  /** Dominant line ending: CRLF when CRLF outnumbers lone LF. */
  eol: '\n' | '\r\n';
  /** Both CRLF and lone LF occur; a rewritten file gets `eol` throughout. */
  mixedEol: boolean;
  /** The file ended with a line ending. */
  finalNewline: boolean;
  /** Permission bits (`st_mode & 0o7777`). */
  mode: number;
}

export type SkipKind = 'binary' | 'encoding' | 'minified' | 'too-large' | 'unreadable';

export interface SourceLocation {
  /** 1-based. */
  line: number;
  /** 1-based, in bytes for byte-level problems. */
  column: number;
}

export interface SourceSkip {
  ok: false;
  kind: SkipKind;
  /** Human-readable, without the path. */
  reason: string;
  location?: SourceLocation;
}

export interface DecodedSource {
  ok: true;
  /** LF line endings, no BOM. */
  text: string;
  meta: SourceMeta;
  /** sha256 of the bytes on disk, to notice a file changing under the run. */
  digest: string;
}

export type ReadResult = DecodedSource | SourceSkip;

const UTF8_BOM = [0xef, 0xbb, 0xbf] as const;

export function digestBytes(bytes: Uint8Array): string {
  return createHash('sha256').update(bytes).digest('hex');
}

/** Offset of the first byte that is not part of a well-formed UTF-8 sequence, or -1. */
export function firstInvalidUtf8(bytes: Uint8Array): number {
  const n = bytes.length;
  const cont = (i: number, lo = 0x80, hi = 0xbf) => i < n && bytes[i] >= lo && bytes[i] <= hi;
  let i = 0;
  while (i < n) {
    const b = bytes[i];
    if (b < 0x80) {
      i += 1;
    } else if (b >= 0xc2 && b <= 0xdf) {
      if (!cont(i + 1)) return i;
      i += 2;
    } else if (b >= 0xe0 && b <= 0xef) {
      const lo = b === 0xe0 ? 0xa0 : 0x80;
      const hi = b === 0xed ? 0x9f : 0xbf;
      if (!cont(i + 1, lo, hi) || !cont(i + 2)) return i;
      i += 3;
    } else if (b >= 0xf0 && b <= 0xf4) {
      const lo = b === 0xf0 ? 0x90 : 0x80;
      const hi = b === 0xf4 ? 0x8f : 0xbf;
      if (!cont(i + 1, lo, hi) || !cont(i + 2) || !cont(i + 3)) return i;
      i += 4;
    } else {
      return i;
    }
  }
  return -1;
}

/** `;` followed at once by a name start, in `text` from `start` to `end` (char codes). */
function packedStatements(code: (i: number) => number, start: number, end: number): number {
  let n = 0;
  for (let i = start; i < end - 1; i++) {
    if (code(i) !== 0x3b) continue;
    const c = code(i + 1);
    if ((c >= 0x61 && c <= 0x7a) || (c >= 0x41 && c <= 0x5a) || c === 0x5f || c === 0x24) n++;
  }
  return n;
}

/** Whether a file of that name is minifier or bundler output (`app.min.js`, `vendor.bundle.js`). */
export function minifiedByName(file: string): boolean {
  return MINIFIED_NAME.test(path.basename(file));
}

/** Line and byte column of a byte offset. */
export function locateOffset(bytes: Uint8Array, offset: number): SourceLocation {
  let line = 1;
  let lineStart = 0;
  for (let i = 0; i < offset && i < bytes.length; i++) {
    if (bytes[i] === 0x0a) {
      line++;
      lineStart = i + 1;
    }
  }
  return { line, column: offset - lineStart + 1 };
}

/** Decode file bytes into pipeline text plus the metadata to restore them. Pure; `mode` comes from the caller's stat. */
export function decodeSource(bytes: Uint8Array, mode: number = NEW_FILE_MODE): ReadResult {
  if (bytes.length >= 2 && ((bytes[0] === 0xff && bytes[1] === 0xfe) || (bytes[0] === 0xfe && bytes[1] === 0xff))) {
    return { ok: false, kind: 'encoding', reason: 'UTF-16 encoded (only UTF-8 is supported)' };
  }
  const nul = bytes.indexOf(0);
  if (nul >= 0) {
    return { ok: false, kind: 'binary', reason: 'binary file (NUL byte)', location: locateOffset(bytes, nul) };
  }
  const bom = bytes.length >= 3 && bytes[0] === UTF8_BOM[0] && bytes[1] === UTF8_BOM[1] && bytes[2] === UTF8_BOM[2];
  const body = bom ? bytes.subarray(3) : bytes;
  let raw: string;
  try {
    raw = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true }).decode(body);
  } catch {
    const bad = firstInvalidUtf8(body);
    const location = bad >= 0 ? locateOffset(body, bad) : undefined;
    return { ok: false, kind: 'encoding', reason: 'not valid UTF-8', location };
  }

  let crlf = 0;
  let lf = 0;
  let longest = 0;
  let longestLine = 1;
  let lines = 1;
  let lineStart = 0;
  let packedLine = 0;
  const code = (i: number) => raw.charCodeAt(i);
  const endLine = (end: number) => {
    const len = end - lineStart;
    if (len > longest) {
      longest = len;
      longestLine = lines;
    }
    if (len >= PACKED_LINE_LENGTH && !packedLine && packedStatements(code, lineStart, end) >= PACKED_STATEMENTS) packedLine = lines;
  };
  for (let i = 0; i < raw.length; i++) {
    if (raw.charCodeAt(i) !== 0x0a) continue;
    if (i > 0 && raw.charCodeAt(i - 1) === 0x0d) crlf++;
    else lf++;
    endLine(i);
    lines++;
    lineStart = i + 1;
  }
  endLine(raw.length);
  if (longest > MAX_LINE_LENGTH) {
    return {
      ok: false,
      kind: 'minified',
      reason: `looks minified or generated (a line of ${longest} characters)`,
      location: { line: longestLine, column: 1 },
    };
  }
  if (raw.length >= MIN_CHARS_FOR_AVERAGE && raw.length / lines > MAX_AVERAGE_LINE_LENGTH) {
    return {
      ok: false,
      kind: 'minified',
      reason: `looks minified or generated (${Math.round(raw.length / lines)} characters per line on average)`,
    };
  }
  if (packedLine) {
    return {
      ok: false,
      kind: 'minified',
      reason: 'looks minified (statements packed without whitespace on one line)',
      location: { line: packedLine, column: 1 },
    };
  }

  const eol = crlf > lf ? '\r\n' : '\n';
  const text = crlf > 0 ? raw.replace(/\r\n/g, '\n') : raw;
  return {
    ok: true,
    text,
    meta: { bom, eol, mixedEol: crlf > 0 && lf > 0, finalNewline: text.endsWith('\n'), mode: mode & 0o7777 },
    digest: digestBytes(bytes),
  };
}

/** Read a source file; never throws: anything that keeps it from the pipeline is a skip with a reason. */
export async function readSource(file: string): Promise<ReadResult> {
  const read = readBytes(file);
  return 'bytes' in read ? decodeSource(read.bytes, read.mode) : read;
}

/** A file whose text nothing in the run needs: it passed the checks that would make it a skip, and was not decoded. */
export interface UnwantedSource {
  ok: true;
  unwanted: true;
}

/**
 * `readSource` for a file the run may not need: `wanted` sees the bytes as Latin-1 text (the same answer
 * as on the decoded text for any pattern of ASCII words), and only a wanted file is decoded, normalised
 * and hashed. An unwanted file still gets the cheap native checks that make a file a skip (UTF-16, NUL,
 * invalid UTF-8, a line too long), so it is reported exactly as `readSource` would report it.
 */
export async function readSourceIfWanted(file: string, wanted: (latin1: string) => boolean): Promise<ReadResult | UnwantedSource> {
  const read = readBytes(file);
  if (!('bytes' in read)) return read;
  const { bytes, mode } = read;
  if (wanted(bytes.toString('latin1')) || mayBeSkipped(bytes)) return decodeSource(bytes, mode);
  return { ok: true, unwanted: true };
}

function readBytes(file: string): { bytes: Buffer; mode: number } | SourceSkip {
  if (minifiedByName(file)) return { ok: false, kind: 'minified', reason: 'minified or bundled, by its name' };
  try {
    // Synchronous on purpose: for thousands of small files, fs/promises costs 3-6x the time of the sync calls.
    const st = statSync(file);
    if (!st.isFile()) return { ok: false, kind: 'unreadable', reason: 'not a regular file' };
    if (st.size > MAX_SOURCE_BYTES) {
      return {
        ok: false,
        kind: 'too-large',
        reason: `too large (${(st.size / 1024 / 1024).toFixed(1)} MiB, limit ${MAX_SOURCE_BYTES / 1024 / 1024} MiB)`,
      };
    }
    const bytes = readFileSync(file);
    if (bytes.length > MAX_SOURCE_BYTES) return { ok: false, kind: 'too-large', reason: 'too large' };
    return { bytes, mode: st.mode };
  } catch (err) {
    const e = err as NodeJS.ErrnoException;
    return { ok: false, kind: 'unreadable', reason: `cannot be read (${e.code ?? e.message})` };
  }
}

/**
 * Whether `decodeSource` could refuse these bytes; false means it would not. Byte lengths bound character
 * lengths from above, so a file whose lines pass in bytes passes in characters.
 */
function mayBeSkipped(bytes: Buffer): boolean {
  if (bytes.length >= 2 && ((bytes[0] === 0xff && bytes[1] === 0xfe) || (bytes[0] === 0xfe && bytes[1] === 0xff))) return true;
  if (bytes.indexOf(0) >= 0 || !isUtf8(bytes)) return true;
  if (bytes.length >= MIN_CHARS_FOR_AVERAGE) {
    // Enough lines for the average to pass: stop counting as soon as there are.
    const needed = Math.ceil(bytes.length / MAX_AVERAGE_LINE_LENGTH);
    let lines = 1;
    for (let i = bytes.indexOf(0x0a); i >= 0 && lines < needed; i = bytes.indexOf(0x0a, i + 1)) lines++;
    if (lines < needed) return true;
  }
  if (bytes.length >= PACKED_LINE_LENGTH) {
    const code = (i: number) => bytes[i]!;
    let start = 0;
    for (let i = bytes.indexOf(0x0a); ; i = bytes.indexOf(0x0a, start)) {
      const end = i < 0 ? bytes.length : i;
      if (end - start > MAX_LINE_LENGTH) return true;
      if (end - start >= PACKED_LINE_LENGTH && packedStatements(code, start, end) >= PACKED_STATEMENTS) return true;
      if (i < 0) break;
      start = i + 1;
    }
  }
  return false;
}

/**
 * The LF text that will be written: `text` with the original's final-newline state restored.
 * `meta === null` (a file the run creates): unchanged.
 */
export function finalizeText(text: string, meta: SourceMeta | null): string {
  if (!meta) return text;
  if (meta.finalNewline && text !== '' && !text.endsWith('\n')) return `${text}\n`;
  if (!meta.finalNewline && text.endsWith('\n')) return text.slice(0, -1);
  return text;
}

/**
 * `after` with the shebang line of `before` put back where a transform lost it (dropped it, or joined it
 * with the next line). A shebang is part of the text and must survive any rewrite untouched.
 */
export function keepShebang(before: string, after: string): string {
  const match = /^#![^\n]*\n/.exec(before);
  if (!match) return after;
  const line = match[0];
  if (after.startsWith(line)) return after;
  const bare = line.slice(0, -1);
  if (after.startsWith(bare)) {
    const rest = after.slice(bare.length);
    // `#!/usr/bin/env node --flag`: a different shebang, not a lost line break; leave it.
    if (/^[ \t]/.test(rest)) return after;
    return line + rest; // the line break was eaten: `#!/usr/bin/env nodeimport …`
  }
  if (after.startsWith('#!')) return after; // replaced by another shebang: deliberate
  return line + after;
}

/** Bytes for `text` (LF, no BOM) with the original's BOM, line ending and final-newline state; `null`: new file, LF, no BOM. */
export function encodeSource(text: string, meta: SourceMeta | null): Buffer {
  let out = finalizeText(text, meta);
  if (meta?.eol === '\r\n') out = out.replace(/\n/g, '\r\n');
  const bytes = Buffer.from(out, 'utf8');
  return meta?.bom ? Buffer.concat([Buffer.from(UTF8_BOM), bytes]) : bytes;
}

/**
 * Whether `file` holds `needle` (ASCII, searched as UTF-8 and as UTF-16), read in chunks so that a file
 * too large to decode is searched too; `undefined` when it cannot be read.
 */
export function fileContains(file: string, needle: string): boolean | undefined {
  const patterns = [Buffer.from(needle, 'utf8'), Buffer.from(needle, 'utf16le')];
  const keep = Math.max(...patterns.map(p => p.length)) - 1;
  let fd: number | undefined;
  try {
    fd = openSync(file, 'r');
    const chunk = Buffer.alloc(1 << 20);
    let carry = Buffer.alloc(0);
    for (let n = readSync(fd, chunk); n > 0; n = readSync(fd, chunk)) {
      const window = Buffer.concat([carry, chunk.subarray(0, n)]);
      if (patterns.some(p => window.includes(p))) return true;
      carry = window.subarray(Math.max(0, window.length - keep));
    }
    return false;
  } catch {
    return undefined;
  } finally {
    if (fd !== undefined) closeSync(fd);
  }
}

/**
 * The name of the temporary file writeAtomic writes `file` through: beside it, hidden, naming the tool and
 * the process, so that one a killed run left is known for what it is (never a user's file).
 */
function temporaryNameFor(file: string): string {
  return path.join(path.dirname(file), `.${path.basename(file)}.mcp-migrate.${process.pid}.${randomBytes(4).toString('hex')}.tmp`);
}

/** A temporary file's name, as writeAtomic names them (and as it named them before the tool's name was in them): its writer's pid. */
const TEMPORARY_NAME = /^\..+\.(?:mcp-migrate\.)?(\d+)\.[0-9a-f]{8}\.tmp$/;

/** Whether process `pid` is running (one that is not ours to signal is running too). */
function running(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/**
 * The temporary files in `dirs` that a run killed while writing left behind (SIGKILL, a crash, a power
 * cut: no handler ran): named as writeAtomic names them, by a process no longer running. Removed, and
 * returned for the run to say so. A concurrent run's files (its process alive) are left alone.
 */
export function removeStaleTemporaryFiles(dirs: Iterable<string>): string[] {
  const removed: string[] = [];
  for (const dir of new Set(dirs)) {
    let names: string[];
    try {
      names = readdirSync(dir);
    } catch {
      continue;
    }
    for (const name of names) {
      const pid = TEMPORARY_NAME.exec(name)?.[1];
      if (pid === undefined || Number(pid) === process.pid || running(Number(pid))) continue;
      const file = path.join(dir, name);
      try {
        if (!statSync(file).isFile()) continue;
        rmSync(file);
        removed.push(file);
      } catch {
        // gone meanwhile, or not ours to remove: left, and not claimed
      }
    }
  }
  return removed.sort();
}

/** Temporary files of writes in progress: what an interrupted run removes before it exits. */
const pendingTemporaryFiles = new Set<string>();

/** Remove the temporary files of the writes in progress (synchronously: for a signal handler about to exit). */
export function removeTemporaryFiles(): string[] {
  const removed = [...pendingTemporaryFiles];
  for (const tmp of removed) rmSync(tmp, { force: true });
  pendingTemporaryFiles.clear();
  return removed;
}

/**
 * Write `text` to `file` atomically: a temp file in the same directory, then a rename over the target.
 * With `meta` the file keeps its mode and encoding; with `meta === null` the file is new: mode 0644, LF, and
 * the write fails (EEXIST) rather than replace a file that appeared in the meantime.
 */
export async function writeAtomic(file: string, text: string, meta: SourceMeta | null): Promise<void> {
  const data = encodeSource(text, meta);
  const dir = path.dirname(file);
  const mode = meta ? meta.mode : NEW_FILE_MODE;
  if (!meta) await fs.mkdir(dir, { recursive: true });
  const tmp = temporaryNameFor(file);
  let placed = false;
  pendingTemporaryFiles.add(tmp);
  try {
    const fh = await fs.open(tmp, 'wx', mode);
    try {
      await fh.writeFile(data);
      await fh.chmod(mode); // open() applies the umask; the original mode must survive exactly
      await fh.sync();
    } finally {
      await fh.close();
    }
    if (meta) {
      await fs.rename(tmp, file);
      placed = true;
    } else {
      // link() refuses to replace an existing file, rename() would not.
      try {
        await fs.link(tmp, file);
      } catch (err) {
        const code = (err as NodeJS.ErrnoException).code;
        if (code === 'EEXIST' || !(code === 'EPERM' || code === 'ENOTSUP' || code === 'EOPNOTSUPP')) throw err;
        // A filesystem without hard links: check, then rename (a small window, but never a silent clobber of an old file).
        if (
          await fs.lstat(file).then(
            () => true,
            () => false,
          )
        ) {
          throw Object.assign(new Error(`EEXIST: file already exists, ${file}`), { code: 'EEXIST' });
        }
        await fs.rename(tmp, file);
        placed = true;
      }
    }
  } finally {
    if (!placed) await fs.rm(tmp, { force: true });
    pendingTemporaryFiles.delete(tmp);
  }
}
