/**
 * SDK 1.x → 2.x: the official `@modelcontextprotocol/codemod` v1-to-v2 migration, applied in
 * memory to the files that import `@modelcontextprotocol/sdk`, so its changes join our diff and
 * its findings join our report. We never reimplement it.
 */
import { getMigration, type Diagnostic } from '@modelcontextprotocol/codemod';
import { Project } from 'ts-morph';
import type { UpgradeNote } from './report.js';

export const V1_IMPORT = /from\s+['"]@modelcontextprotocol\/sdk[/'"]|require\(\s*['"]@modelcontextprotocol\/sdk[/'"]/;

export interface UpgradeResult {
  /** New text per upgraded file (absolute path). */
  texts: Map<string, string>;
  notes: UpgradeNote[];
}

export function upgradeV1(files: { path: string; text: string }[]): UpgradeResult {
  const texts = new Map<string, string>();
  const notes: UpgradeNote[] = [];
  const v1 = files.filter(f => V1_IMPORT.test(f.text));
  if (v1.length === 0) return { texts, notes };
  const migration = getMigration('v1-to-v2');
  if (!migration) throw new Error('the official codemod has no v1-to-v2 migration');
  const project = new Project({ useInMemoryFileSystem: true, skipAddingFilesFromTsConfig: true, compilerOptions: { allowJs: true } });
  const sources = v1.map(f => project.createSourceFile(f.path, f.text, { overwrite: true }));
  const projectType = 'server' as const;
  for (const sf of sources) {
    for (const transform of migration.transforms) {
      const result = transform.apply(sf, { projectType });
      notes.push(...result.diagnostics.map((d: Diagnostic) => toNote(d, sf.getFilePath())));
    }
    const after = sf.getFullText();
    const before = v1.find(f => f.path === sf.getFilePath())!.text;
    if (after !== before) texts.set(sf.getFilePath(), after);
  }
  return { texts, notes };
}

function toNote(d: Diagnostic, file: string): UpgradeNote {
  let line = d.line;
  try {
    line = d.resolveCurrentLine?.() ?? d.line;
  } catch {
    // the node moved or vanished; keep the original line
  }
  return { file: d.file || file, line, level: d.level as UpgradeNote['level'], message: d.message };
}
