/**
 * One analysis project serves every run of a process (src/analysis/project.ts): TypeScript's library and the
 * declarations installed with mcp-migrate are parsed and bound once. What one run leaves must never change the
 * next: the next run sees neither the last one's files, nor the packages its project had installed, nor the
 * module resolutions it made, and migrates a project as a process of its own does.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { forgetProjectFiles, sharedAnalysisProject } from '../src/analysis/project.js';
import { migrateSources } from '../src/pipeline.js';
import { assertBuilt, REPO, runCli } from './cli-helpers.js';

const made: string[] = [];
afterAll(() => {
  for (const dir of made) fs.rmSync(dir, { recursive: true, force: true });
});

function freshDir(): string {
  const dir = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'mcp-migrate-reuse-')));
  made.push(dir);
  return dir;
}

function install(dir: string, name: string, declarations: string): void {
  const pkg = path.join(dir, 'node_modules', name);
  fs.mkdirSync(pkg, { recursive: true });
  fs.writeFileSync(path.join(pkg, 'package.json'), JSON.stringify({ name, version: '1.0.0', types: 'index.d.ts' }));
  fs.writeFileSync(path.join(pkg, 'index.d.ts'), declarations);
}

const SOURCE = `import { probe } from 'probe-pkg';\nimport { McpServer } from '@modelcontextprotocol/server';\nexport const made = [probe, McpServer];\n`;

describe('the analysis project shared by the runs of a process', () => {
  it("forgets a run's files, its installed packages and its resolutions, and keeps the declarations it was installed with", () => {
    const project = sharedAnalysisProject();
    const dir = freshDir();
    const file = path.join(dir, 'src', 'a.ts');
    const probeOf = () => {
      forgetProjectFiles(project);
      const sf = project.createSourceFile(file, SOURCE, { overwrite: true });
      return sf.getImportDeclarations()[0]!.getModuleSpecifierSourceFile()?.getFilePath();
    };

    expect(probeOf(), 'nothing installed yet').toBeUndefined();
    install(dir, 'probe-pkg', 'export declare const probe: number;\n');
    expect(probeOf(), 'installed since the last run').toBe(
      path.join(dir, 'node_modules', 'probe-pkg', 'index.d.ts').replaceAll(path.sep, '/'),
    );

    forgetProjectFiles(project);
    // ts-morph's getSourceFiles() lists only what was added; a file the program read through an import is held too.
    const held = project
      .getDirectory(path.parse(dir).root)!
      .getDescendantSourceFiles()
      .map(sf => sf.getFilePath());
    expect(held.filter(f => f.startsWith(dir.replaceAll(path.sep, '/')))).toEqual([]);
    expect(held.some(f => f.includes('/node_modules/@modelcontextprotocol/server/'))).toBe(true);
  });

  it('migrates a project after others as a process of its own does', async () => {
    assertBuilt();
    const fixture = (name: string) => fs.readFileSync(path.join(REPO, '__testfixtures__', `${name}.input.ts`), 'utf8');
    for (const earlier of ['loops-and-try', 'class-instance-fields', 'cache-filler']) {
      const dir = freshDir();
      await migrateSources([{ path: path.join(dir, 'server.ts'), text: fixture(earlier) }], { cwd: dir });
    }
    const inProcess = freshDir();
    const file = path.join(inProcess, 'server.ts');
    const migrated = await migrateSources([{ path: file, text: fixture('shared-helpers') }], { cwd: inProcess });

    const alone = freshDir();
    fs.writeFileSync(path.join(alone, 'server.ts'), fixture('shared-helpers'));
    const cli = await runCli(['--quiet', '.'], alone);
    expect(cli.code, cli.stderr).toBe(0);
    expect(migrated.changes.find(c => c.path === file)?.after).toBe(fs.readFileSync(path.join(alone, 'server.ts'), 'utf8'));
  });
});
