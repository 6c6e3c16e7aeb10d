/**
 * Typechecks migrated outputs against the real SDK 2.x types installed in node_modules (strict,
 * NodeNext, as a user's project would). The files must sit inside the repo so the packages resolve,
 * under a directory whose package.json says `"type": "module"` (see `markEsm`).
 */
import fs from 'node:fs';
import path from 'node:path';
import { Project, ts } from 'ts-morph';

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

/** One program over all `files`; returns its diagnostics as `file:line: message`, paths relative to `base`. */
export function typecheckFiles(files: string[], base: string, extra: ts.CompilerOptions = {}): string[] {
  const project = new Project({
    compilerOptions: {
      ...extra,
      strict: true,
      target: ts.ScriptTarget.ES2022,
      module: ts.ModuleKind.NodeNext,
      moduleResolution: ts.ModuleResolutionKind.NodeNext,
      skipLibCheck: true,
      noEmit: true,
      allowJs: true,
      types: ['node'],
    },
    skipAddingFilesFromTsConfig: true,
  });
  for (const file of files) project.addSourceFileAtPath(file);
  return project
    .getPreEmitDiagnostics()
    .map(
      d =>
        `${path.relative(base, d.getSourceFile()?.getFilePath() ?? '')}:${d.getLineNumber()}: ${ts.flattenDiagnosticMessageText(d.compilerObject.messageText, '\n')}`,
    );
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
