/**
 * Typechecks migrated outputs against the real SDK 2.x types installed in node_modules (strict, NodeNext, with
 * the TypeScript the repository installs, as a user's project would). The files must sit inside the repo so the
 * packages resolve, under a directory whose package.json says `"type": "module"` (see `markEsm`).
 */
import fs from 'node:fs';
import path from 'node:path';
import ts from 'typescript';

/** Writes `{ "type": "module" }` as `dir/package.json`, so NodeNext treats the .ts files there as ESM. */
export function markEsm(dir: string): void {
  fs.mkdirSync(dir, { recursive: true });
  fs.writeFileSync(path.join(dir, 'package.json'), JSON.stringify({ type: 'module' }));
}

/** Every `.ts`/`.mts` file directly inside each of `dirs`. */
export function typeScriptFilesIn(dirs: string[]): string[] {
  return dirs.flatMap(dir =>
    fs
      .readdirSync(dir)
      .filter(f => /\.(ts|mts)$/.test(f))
      .map(f => path.join(dir, f)),
  );
}

/**
 * Installed declaration files (TypeScript's library, @types/node, the SDK's), parsed once per test file and shared
 * by every program typecheckFiles makes, as a language service shares them between its programs: the files do not
 * change while the tests run, and parsing them was most of each check.
 */
const installed = new Map<string, ts.SourceFile | undefined>();

function sharingHost(options: ts.CompilerOptions): ts.CompilerHost {
  const host = ts.createCompilerHost(options, true);
  const parse = host.getSourceFile.bind(host);
  host.getSourceFile = (fileName, languageVersionOrOptions, onError, shouldCreateNewSourceFile) => {
    if (!/[\\/]node_modules[\\/].*\.d\.[cm]?ts$/.test(fileName))
      return parse(fileName, languageVersionOrOptions, onError, shouldCreateNewSourceFile);
    const key = `${fileName}\0${JSON.stringify(languageVersionOrOptions)}`;
    if (!installed.has(key)) installed.set(key, parse(fileName, languageVersionOrOptions, onError, shouldCreateNewSourceFile));
    return installed.get(key);
  };
  return host;
}

/** One program over all `files`; returns its diagnostics as `file:line: message`, paths relative to `base`. */
export function typecheckFiles(files: string[], base: string, extra: ts.CompilerOptions = {}): string[] {
  const options: ts.CompilerOptions = {
    ...extra,
    strict: true,
    target: ts.ScriptTarget.ES2022,
    module: ts.ModuleKind.NodeNext,
    moduleResolution: ts.ModuleResolutionKind.NodeNext,
    skipLibCheck: true,
    noEmit: true,
    allowJs: true,
    types: ['node'],
  };
  const program = ts.createProgram(files, options, sharingHost(options));
  return ts.getPreEmitDiagnostics(program).map(d => {
    const line = d.file && d.start !== undefined ? ts.getLineAndCharacterOfPosition(d.file, d.start).line + 1 : undefined;
    return `${path.relative(base, d.file?.fileName ?? '')}:${line}: ${ts.flattenDiagnosticMessageText(d.messageText, '\n')}`;
  });
}

/** Syntax errors of one source text (TypeScript's parser), as `line:col: message`. */
export function syntaxErrors(fileName: string, text: string): string[] {
  const kind = /\.[cm]?jsx?$/.test(fileName) ? ts.ScriptKind.JS : ts.ScriptKind.TS;
  const sf = ts.createSourceFile(fileName, text, ts.ScriptTarget.Latest, true, kind);
  const diagnostics = (sf as unknown as { parseDiagnostics?: ts.Diagnostic[] }).parseDiagnostics ?? [];
  return diagnostics.map(d => {
    const { line, character } = ts.getLineAndCharacterOfPosition(sf, d.start ?? 0);
    return `${line + 1}:${character + 1}: ${ts.flattenDiagnosticMessageText(d.messageText, ' ')}`;
  });
}
