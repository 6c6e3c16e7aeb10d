import fsModule from 'node:fs';
import { chmod, mkdtemp, readdir, readFile, rm, stat, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import fc from 'fast-check';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  decodeSource,
  encodeSource,
  finalizeText,
  keepShebang,
  fileContains,
  firstInvalidUtf8,
  MAX_LINE_LENGTH,
  MAX_SOURCE_BYTES,
  minifiedByName,
  readSource,
  readSourceIfWanted,
  removeTemporaryFiles,
  writeAtomic,
  type SourceMeta,
} from '../src/io.js';

let dir: string;
beforeEach(async () => {
  dir = await mkdtemp(path.join(tmpdir(), 'mcp-migrate-io-'));
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

/** A line of source-like text: any unicode except line breaks (and NUL, which makes a file binary). */
const lineArb = fc.string({ unit: 'grapheme', maxLength: 60 }).map(s => s.replace(/[\r\n\0]/g, ''));

/** Bytes of a file with uniform line endings, optional BOM, optional final newline. */
const fileArb = fc
  .record({
    lines: fc.array(lineArb, { maxLength: 30 }),
    bom: fc.boolean(),
    crlf: fc.boolean(),
    finalNewline: fc.boolean(),
    shebang: fc.boolean(),
  })
  .map(({ lines, bom, crlf, finalNewline, shebang }) => {
    const eol = crlf ? '\r\n' : '\n';
    const all = shebang ? ['#!/usr/bin/env node', ...lines] : lines;
    let text = all.join(eol);
    if (finalNewline && all.length) text += eol;
    const bytes = Buffer.concat([bom ? Buffer.from([0xef, 0xbb, 0xbf]) : Buffer.alloc(0), Buffer.from(text, 'utf8')]);
    // What the file is, whatever the generator asked for (e.g. an empty last line is a final newline too).
    return { bytes, bom, eol: text.includes('\r\n') ? '\r\n' : '\n', finalNewline: text.endsWith('\n') };
  });

describe('decodeSource / encodeSource', () => {
  it('round-trips any file with uniform line endings byte for byte', () => {
    fc.assert(
      fc.property(fileArb, ({ bytes, bom, eol, finalNewline }) => {
        const r = decodeSource(bytes);
        if (!r.ok) return r.kind === 'minified'; // long random lines are not the point here
        expect(r.text.includes('\r\n')).toBe(false);
        expect(r.meta.bom).toBe(bom);
        expect(r.meta.eol).toBe(eol);
        expect(r.meta.finalNewline).toBe(finalNewline);
        expect(Buffer.compare(encodeSource(r.text, r.meta), bytes)).toBe(0);
        return true;
      }),
      { numRuns: 500 },
    );
  });

  it('round-trips arbitrary valid UTF-8 text (lone CR, CR CR LF, BOM inside) when endings are not mixed', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'binary', maxLength: 200 }), fc.boolean(), (s, bom) => {
        const clean = s.replace(/\0/g, '');
        const bytes = Buffer.concat([bom ? Buffer.from([0xef, 0xbb, 0xbf]) : Buffer.alloc(0), Buffer.from(clean, 'utf8')]);
        const r = decodeSource(bytes);
        if (!r.ok || r.meta.mixedEol) return true;
        expect(Buffer.compare(encodeSource(r.text, r.meta), bytes)).toBe(0);
        return true;
      }),
      { numRuns: 500 },
    );
  });

  it('records BOM, dominant EOL, final newline and mixed endings', () => {
    const r = decodeSource(Buffer.from('\uFEFFa\r\nb\r\nc\n', 'utf8'), 0o100755);
    expect(r.ok).toBe(true);
    if (!r.ok) return;
    expect(r.text).toBe('a\nb\nc\n');
    expect(r.meta).toEqual({ bom: true, eol: '\r\n', mixedEol: true, finalNewline: true, mode: 0o755 });
  });

  it('keeps a shebang line as text', () => {
    const r = decodeSource(Buffer.from('#!/usr/bin/env node\r\nconsole.log(1)\r\n'));
    expect(r.ok && r.text).toBe('#!/usr/bin/env node\nconsole.log(1)\n');
    if (r.ok) expect(encodeSource(r.text, r.meta).toString()).toBe('#!/usr/bin/env node\r\nconsole.log(1)\r\n');
  });

  it('restores the final-newline state on changed text', () => {
    const noFinal: SourceMeta = { bom: false, eol: '\r\n', mixedEol: false, finalNewline: false, mode: 0o644 };
    const withFinal: SourceMeta = { ...noFinal, finalNewline: true };
    expect(encodeSource('a\nb\n', noFinal).toString()).toBe('a\r\nb');
    expect(encodeSource('a\nb', withFinal).toString()).toBe('a\r\nb\r\n');
    expect(finalizeText('x\n', null)).toBe('x\n');
    expect(encodeSource('new\n', null).toString()).toBe('new\n');
  });

  it('skips binary, non-UTF-8, UTF-16 and minified input, with a location where there is one', () => {
    const bin = decodeSource(Buffer.from('ab\ncd\0ef'));
    expect(bin).toMatchObject({ ok: false, kind: 'binary', location: { line: 2, column: 3 } });
    const bad = decodeSource(Buffer.from([0x61, 0x0a, 0x62, 0xc3, 0x28]));
    expect(bad).toMatchObject({ ok: false, kind: 'encoding', reason: 'not valid UTF-8', location: { line: 2, column: 2 } });
    expect(decodeSource(Buffer.from([0xff, 0xfe, 0x61, 0x00]))).toMatchObject({ ok: false, kind: 'encoding' });
    expect(decodeSource(Buffer.from(`a\n${'x'.repeat(6000)}\n`))).toMatchObject({ ok: false, kind: 'minified', location: { line: 2 } });
    const dense = Array.from({ length: 10 }, () => 'y'.repeat(900)).join('\n');
    expect(decodeSource(Buffer.from(dense))).toMatchObject({ ok: false, kind: 'minified' });
    expect(decodeSource(Buffer.from('x'.repeat(900))).ok).toBe(true); // one long-ish line in a small file is fine
  });

  it('skips a small one-line bundle (statements packed without whitespace), not a long hand-written or data line', () => {
    const bundle = `"use strict";${'var a=require("x");a.run();'.repeat(10)}\n`;
    expect(bundle.length).toBeLessThan(MAX_LINE_LENGTH);
    expect(decodeSource(Buffer.from(`// header\n${bundle}`))).toMatchObject({
      ok: false,
      kind: 'minified',
      location: { line: 2, column: 1 },
    });
    const spaced = `${'const a = require("x"); a.run(); '.repeat(10)}\n`;
    expect(decodeSource(Buffer.from(spaced)).ok).toBe(true);
    const data = `export const icon = "${'QUJD'.repeat(300)}";\n`;
    expect(decodeSource(Buffer.from(data)).ok).toBe(true);
    const forLoops = `for (;;) { break; } ${'x'.repeat(300)}\n`;
    expect(decodeSource(Buffer.from(forLoops)).ok).toBe(true);
  });

  it('reports a minified file the same whether or not the run wants its text', async () => {
    const bundle = `${'var a=require("x");a.run();'.repeat(10)}\n`;
    const file = path.join(dir, 'bundle.js');
    await writeFile(file, bundle);
    const wanted = await readSource(file);
    const unwanted = await readSourceIfWanted(file, () => false);
    expect(unwanted).toEqual(wanted);
    expect(wanted).toMatchObject({ ok: false, kind: 'minified' });
  });

  it('skips files named as minifier or bundler output, whatever their content', async () => {
    for (const name of ['app.min.js', 'app-min.mjs', 'vendor.bundle.js', 'x.packed.cjs']) expect(minifiedByName(name), name).toBe(true);
    for (const name of ['admin.js', 'minimal.ts', 'bundle.ts', 'min.js']) expect(minifiedByName(name), name).toBe(false);
    const file = path.join(dir, 'tiny.min.js');
    await writeFile(file, 'export const a = 1;\n');
    expect(await readSource(file)).toMatchObject({ ok: false, kind: 'minified', reason: 'minified or bundled, by its name' });
  });

  it('fileContains finds a string anywhere in a file larger than the read limit, in UTF-8 or UTF-16', async () => {
    const big = path.join(dir, 'big.js');
    await writeFile(big, `${'x'.repeat(3 * 1024 * 1024)}\nimport '@modelcontextprotocol/sdk';\n`);
    expect(fileContains(big, '@modelcontextprotocol/')).toBe(true);
    // Across the boundary of two chunks.
    const across = path.join(dir, 'across.js');
    await writeFile(across, `${'y'.repeat((1 << 20) - 5)}@modelcontextprotocol/`);
    expect(fileContains(across, '@modelcontextprotocol/')).toBe(true);
    const utf16 = path.join(dir, 'utf16.ts');
    await writeFile(utf16, Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from("import '@modelcontextprotocol/sdk';", 'utf16le')]));
    expect(fileContains(utf16, '@modelcontextprotocol/')).toBe(true);
    expect(fileContains(path.join(dir, 'none.js'), 'x')).toBeUndefined();
    await writeFile(path.join(dir, 'plain.js'), 'export {};\n');
    expect(fileContains(path.join(dir, 'plain.js'), '@modelcontextprotocol/')).toBe(false);
  });

  it('finds the first invalid UTF-8 byte like the WHATWG decoder rejects it', () => {
    fc.assert(
      fc.property(fc.uint8Array({ maxLength: 40 }), bytes => {
        let valid = true;
        try {
          new TextDecoder('utf-8', { fatal: true }).decode(bytes);
        } catch {
          valid = false;
        }
        expect(firstInvalidUtf8(bytes) === -1).toBe(valid);
      }),
      { numRuns: 2000 },
    );
  });
});

describe('keepShebang', () => {
  const sb = '#!/usr/bin/env node\n';
  it('puts back a shebang a transform dropped or joined with the next line', () => {
    expect(keepShebang(`${sb}a\n`, 'b\n')).toBe(`${sb}b\n`);
    expect(keepShebang(`${sb}a\n`, '#!/usr/bin/env nodeimport x;\n')).toBe(`${sb}import x;\n`);
  });
  it('leaves text alone when the shebang is there, absent from the original, or deliberately different', () => {
    expect(keepShebang(`${sb}a\n`, `${sb}b\n`)).toBe(`${sb}b\n`);
    expect(keepShebang('a\n', 'b\n')).toBe('b\n');
    expect(keepShebang(`${sb}a\n`, '#!/usr/bin/env node --flag\nb\n')).toBe('#!/usr/bin/env node --flag\nb\n');
    expect(keepShebang(`${sb}a\n`, '#!/bin/sh\nb\n')).toBe('#!/bin/sh\nb\n');
  });
});

describe('readSource', () => {
  it('reads text and mode', async () => {
    const file = path.join(dir, 'a.ts');
    await writeFile(file, 'x\n');
    await chmod(file, 0o600);
    const r = await readSource(file);
    expect(r).toMatchObject({ ok: true, text: 'x\n', meta: { mode: 0o600 } });
  });

  it('skips very large files without reading them', async () => {
    const file = path.join(dir, 'big.js');
    await writeFile(file, Buffer.alloc(MAX_SOURCE_BYTES + 1, 0x61));
    expect(await readSource(file)).toMatchObject({ ok: false, kind: 'too-large' });
  });

  it('turns a read failure into a skip, never a throw', async () => {
    expect(await readSource(path.join(dir, 'missing.ts'))).toMatchObject({ ok: false, kind: 'unreadable' });
    await symlink(path.join(dir, 'missing.ts'), path.join(dir, 'broken.ts'));
    expect(await readSource(path.join(dir, 'broken.ts'))).toMatchObject({ ok: false, kind: 'unreadable' });
    expect(await readSource(dir)).toMatchObject({ ok: false, kind: 'unreadable', reason: 'not a regular file' });
  });
});

describe('writeAtomic', () => {
  it('keeps the file mode and encoding, leaves no temp file', async () => {
    const file = path.join(dir, 'tool.js');
    await writeFile(file, '\uFEFF#!/usr/bin/env node\r\nold\r\n');
    await chmod(file, 0o755);
    const r = await readSource(file);
    if (!r.ok) throw new Error(r.reason);
    await writeAtomic(file, r.text.replace('old', 'new'), r.meta);
    expect((await stat(file)).mode & 0o7777).toBe(0o755);
    expect(await readFile(file, 'utf8')).toBe('\uFEFF#!/usr/bin/env node\r\nnew\r\n');
    expect(await readdir(dir)).toEqual(['tool.js']);
  });

  it('keeps unusual modes exactly, regardless of the umask', async () => {
    for (const mode of [0o600, 0o640, 0o664, 0o700, 0o444]) {
      const file = path.join(dir, `m${mode.toString(8)}.ts`);
      await writeFile(file, 'a\n');
      await chmod(file, mode);
      const r = await readSource(file);
      if (!r.ok) throw new Error(r.reason);
      await writeAtomic(file, 'b\n', r.meta);
      expect((await stat(file)).mode & 0o7777).toBe(mode);
    }
  });

  it('creates a new file with 0644 and LF, in a new directory, and never replaces an existing one', async () => {
    const file = path.join(dir, 'sub', 'state.ts');
    await writeAtomic(file, 'a\nb\n', null);
    expect((await stat(file)).mode & 0o7777).toBe(0o644);
    expect(await readFile(file, 'utf8')).toBe('a\nb\n');
    await expect(writeAtomic(file, 'other\n', null)).rejects.toMatchObject({ code: 'EEXIST' });
    expect(await readFile(file, 'utf8')).toBe('a\nb\n');
    expect(await readdir(path.join(dir, 'sub'))).toEqual(['state.ts']);
  });

  it('keeps track of its temporary file until the write ends, so that an interrupted run can remove it', async () => {
    const file = path.join(dir, 'held.ts');
    await writeFile(file, 'old\n');
    const r = await readSource(file);
    if (!r.ok) throw new Error(r.reason);
    const rename = fsModule.promises.rename;
    let reached!: () => void;
    const renaming = new Promise<void>(resolve => (reached = resolve));
    fsModule.promises.rename = (() => {
      reached();
      return new Promise(() => {});
    }) as typeof rename;
    try {
      void writeAtomic(file, 'new\n', r.meta);
      await renaming;
      const temps = (await readdir(dir)).filter(f => f.endsWith('.tmp'));
      expect(temps).toHaveLength(1);
      expect(removeTemporaryFiles().map(p => path.basename(p))).toEqual(temps);
      expect(await readdir(dir)).toEqual(['held.ts']);
      expect(await readFile(file, 'utf8')).toBe('old\n');
      expect(removeTemporaryFiles()).toEqual([]);
    } finally {
      fsModule.promises.rename = rename;
    }
  });
});
