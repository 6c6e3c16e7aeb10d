/**
 * The requestState module written in the project's style (src/restyle.ts): indentation, quotes and
 * semicolons change, nothing else. The TypeScript flavour, restyled, still typechecks against the SDK; the
 * JavaScript flavours still parse and keep their exports; a multi-line template keeps its text.
 */
import { Project } from 'ts-morph';
import { describe, expect, it } from 'vitest';
import { restyled } from '../src/restyle.js';
import { STATE_MODULE_BASENAME, STATE_SEAL_BASENAME, stateModuleFiles, stateModuleText } from '../src/stateModule.js';

const STYLES = {
  tabs: { unit: '\t', quote: 'double', semicolons: false },
  two: { unit: '  ', quote: 'single', semicolons: true },
} as const;

/** The names a JavaScript flavour exports (`exports.x =`, `export function x`, `export { x }`). */
const exported = (text: string) =>
  [...text.matchAll(/^(?:exports\.(\w+) =|export (?:async )?(?:function\*? ?|const |let |class )(\w+)|export \{([^}]*)\})/gm)]
    .flatMap(m => m[1] ?? m[2] ?? m[3]!.split(',').map(n => n.trim()))
    .sort();

describe('restyled', () => {
  it('is the text itself in the style the module is written in', () => {
    const text = stateModuleText('ts');
    expect(restyled(text, { unit: '    ', quote: 'single', semicolons: true })).toBe(text);
  });

  it('re-indents, re-quotes and drops line-ending semicolons, where nothing can change', () => {
    const text = "const a = 'x';\nif (a) {\n    f('it\\'s');\n    g(\"y\");\n    h(`one\n    two`);\n}\nconst b = a;\n(b);\n";
    expect(restyled(text, STYLES.tabs)).toBe(
      'const a = "x"\nif (a) {\n\tf(\'it\\\'s\')\n\tg("y")\n\th(`one\n    two`)\n}\nconst b = a;\n(b)\n',
    );
  });

  for (const [name, style] of Object.entries(STYLES)) {
    it(`gives a TypeScript module that still typechecks (${name})`, () => {
      const project = new Project({
        compilerOptions: { strict: true, skipLibCheck: true, target: 99, module: 199, moduleResolution: 99, types: ['node'] },
      });
      const files = stateModuleFiles(`${process.cwd()}/test-restyle/${STATE_MODULE_BASENAME}.ts`, 'ts', { style });
      for (const f of files) project.createSourceFile(f.path, f.text, { overwrite: true });
      const diagnostics = project.getPreEmitDiagnostics().map(d => d.getMessageText().toString());
      expect(diagnostics).toEqual([]);
      if (style.unit === '\t') expect(files[0]!.text).toMatch(/^\t\w/m);
      if (style.quote === 'double') expect(files[0]!.text).toContain('from "@modelcontextprotocol/server"');
    });

    for (const flavour of ['esm', 'cjs'] as const) {
      it(`gives a ${flavour} module that parses, with its exports (${name})`, () => {
        for (const base of [STATE_MODULE_BASENAME, STATE_SEAL_BASENAME] as const) {
          const original = stateModuleText(flavour, base);
          const project = new Project({ compilerOptions: { allowJs: true, noEmit: true, noLib: true, types: [] } });
          const before = project.createSourceFile(`a/${base}.${flavour === 'cjs' ? 'cjs' : 'mjs'}`, original);
          const after = project.createSourceFile(`b/${base}.${flavour === 'cjs' ? 'cjs' : 'mjs'}`, restyled(original, style, `${base}.js`));
          expect(
            project
              .getProgram()
              .getSyntacticDiagnostics(after)
              .map(d => d.getMessageText().toString()),
          ).toEqual([]);
          expect(exported(after.getFullText())).toEqual(exported(before.getFullText()));
          expect(exported(original).length).toBeGreaterThan(2);
        }
      });
    }
  }
});
