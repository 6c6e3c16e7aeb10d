/**
 * SDK 2.x needs zod 4 (the migration's notes ask for the raise), and zod 4's `z.record` takes the key schema
 * too: a zod 3 `z.record(valueSchema)` fails to compile (TS2554) once zod is raised. `z.record(z.string(),
 * valueSchema)` means the same in zod 3 and 4, so it is written so before the raise.
 */
import type { Diagnostic } from '@modelcontextprotocol/codemod';
import { Node, SyntaxKind } from 'ts-morph';
import { finding, type Repair } from '../repair.js';
import { descendantsOfKind } from '../../analysis/descendants.js';

export const zodRecordRepair: Repair = {
  id: 'zod-record',
  name: 'zod 3 one-argument z.record()',
  apply: sf => {
    const diagnostics: Diagnostic[] = [];
    // The local name zod is imported as (`import { z } from 'zod'`, `import * as z from 'zod'`).
    const zod = sf
      .getImportDeclarations()
      .filter(d => /^zod(\/v3)?$/.test(d.getModuleSpecifierValue()))
      .flatMap(d => [
        d.getNamespaceImport()?.getText(),
        d.getDefaultImport()?.getText(),
        ...d
          .getNamedImports()
          .filter(n => n.getName() === 'z')
          .map(n => n.getAliasNode()?.getText() ?? 'z'),
      ])
      .find((n): n is string => n !== undefined);
    if (!zod) return { changesCount: 0, diagnostics };
    for (const call of descendantsOfKind(sf, SyntaxKind.CallExpression).reverse()) {
      const callee = call.getExpression();
      if (
        !Node.isPropertyAccessExpression(callee) ||
        callee.getName() !== 'record' ||
        callee.getExpression().getText() !== zod ||
        call.getArguments().length !== 1
      )
        continue;
      const value = call.getArguments()[0]!;
      const line = call.getStartLineNumber();
      value.replaceWithText(`${zod}.string(), ${value.getText()}`);
      diagnostics.push(
        finding(
          sf,
          line,
          'info',
          `${zod}.record(value) written as ${zod}.record(${zod}.string(), value): zod 4, which SDK 2.x needs, takes the key schema too, and zod 3 reads both alike`,
        ),
      );
    }
    return { changesCount: diagnostics.length, diagnostics };
  },
};
