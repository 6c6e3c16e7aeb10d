/**
 * The least a run of mcp-migrate's design does on a tree (the bench's `design-floor`): load the modules a
 * run loads, run the official codemod's transforms on every file that imports SDK 1.x (what the upgrade
 * hands on), and build the analysis's type-checked program of the upgraded files, with the library, Node,
 * SDK and zod declarations its questions read. No repair, no analysis question past the first, no rewrite,
 * no diff. Timed beside the official codemod and tsc, it says how near to them a tool that does both can be.
 * Every source the CLI discovers goes into the program, where a run adds only those worth analysing: the
 * others (plain utilities) enter its program all the same, through the imports of those it adds.
 *
 * Prints `{ files, upgraded }` as JSON; run in the tree's directory.
 */
import { readFileSync } from 'node:fs';
import { getMigration } from '@modelcontextprotocol/codemod';
import { analysisProject } from '../src/analysis/project.js';
import { discoverSources } from '../src/files.js';
import '../src/pipeline.js';
import { upgradeProject, V1_IMPORT } from '../src/upgrade/index.js';

async function main(): Promise<void> {
  const cwd = process.cwd();
  const { files } = await discoverSources(['.'], { cwd });
  const migration = getMigration('v1-to-v2');
  if (!migration) throw new Error('the official codemod has no v1-to-v2 migration');
  const analysis = analysisProject();
  let upgraded = 0;
  for (const file of files) {
    let text = readFileSync(file, 'utf8');
    if (V1_IMPORT.test(text)) {
      const sf = upgradeProject().createSourceFile(file, text);
      for (const transform of migration.transforms) transform.apply(sf, { projectType: 'server' });
      text = sf.getFullText();
      upgraded++;
    }
    analysis.createSourceFile(file, text, { overwrite: true });
  }
  // One question makes the checker, which binds every file of the program.
  const first = analysis.getSourceFiles().find(sf => !sf.isInNodeModules());
  const id = first?.getFirstDescendant(n => n.getKindName() === 'Identifier');
  if (id) analysis.getTypeChecker().compilerObject.getSymbolAtLocation(id.compilerNode);
  console.log(JSON.stringify({ files: files.length, upgraded }));
}

await main();
