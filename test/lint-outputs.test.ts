/**
 * Every fixture output passes the two lint rules a reviewer of a migration is most likely to run
 * into: `no-unreachable-loop` (a loop the rewrite left with a body that always returns) and
 * `@typescript-eslint/no-unused-vars` (a local, parameter or helper the rewrite left unread, which
 * `noUnusedLocals` refuses as well). A finding the fixture's input has already (same rule, same name)
 * is the project's own, not the rewrite's: only what the rewrite adds counts.
 *
 * One Linter, texts in memory, no config file: the config is the one below. A finding the rewrite
 * still makes goes into KNOWN_FAILURES with its reason; each runs as `it.fails`, so fixing it turns
 * that test red until the entry is removed.
 */
import fs from 'node:fs';
import path from 'node:path';
import { Linter } from 'eslint';
import tseslint from 'typescript-eslint';
import { describe, expect, it } from 'vitest';

const root = path.resolve(import.meta.dirname, '..');
const fixtures = path.join(root, '__testfixtures__');

const config: Linter.Config[] = [
  {
    files: ['**/*.{ts,tsx,mts,cts,js,jsx,mjs,cjs}'],
    // The TypeScript parser reads the JavaScript fixtures too; no type information is needed.
    languageOptions: { parser: tseslint.parser as Linter.Parser },
    plugins: { '@typescript-eslint': tseslint.plugin as never },
    linterOptions: { reportUnusedDisableDirectives: 'off' },
    rules: {
      'no-unreachable-loop': 'error',
      '@typescript-eslint/no-unused-vars': [
        'error',
        {
          vars: 'all',
          // A parameter before one that is read holds its place in the signature: not a finding.
          args: 'after-used',
          // `_ctx` is how the rewrite names a parameter a signature needs and nothing reads (as tsc's
          // noUnusedParameters allows it); a user's `_name` says the same.
          argsIgnorePattern: '^_',
          // The rewrite copies catch clauses into its phases: a binding it left unread there is its own
          // finding, so the default (every caught error) stays.
          caughtErrors: 'all',
          // `const { dropped, ...rest } = value` is how one leaves a property out.
          ignoreRestSiblings: true,
        },
      ],
    },
  },
];

const linter = new Linter({ cwd: root });

interface Finding {
  /** The rule and what it is about: the name for no-unused-vars, the loop's first line for no-unreachable-loop. */
  key: string;
  where: string;
}

function findingsOf(file: string): Finding[] {
  const text = fs.readFileSync(file, 'utf8');
  const lines = text.split(/\r?\n/);
  return linter.verify(text, config, file).map(m => {
    const subject =
      m.ruleId === '@typescript-eslint/no-unused-vars'
        ? /^'([^']+)'/.exec(m.message)?.[1]
        : lines[m.line - 1]
            ?.slice(m.column - 1)
            .replace(/\s*\{\s*$/, '')
            .trim();
    return {
      key: `${m.ruleId ?? 'parse error'}: ${subject ?? m.message}`,
      where: `${path.basename(file)}:${m.line}:${m.column} ${m.message}`,
    };
  });
}

/** The output's findings less the input's (as many of each key as the input has). */
function addedFindings(input: string, output: string): Finding[] {
  const before = new Map<string, number>();
  for (const f of findingsOf(input)) before.set(f.key, (before.get(f.key) ?? 0) + 1);
  return findingsOf(output).filter(f => {
    const n = before.get(f.key) ?? 0;
    if (n > 0) before.set(f.key, n - 1);
    return n === 0;
  });
}

/**
 * Findings the rewrite still makes, by fixture: each `key` as findingsOf writes it
 * (`@typescript-eslint/no-unused-vars: answer`), with why it is there. Remove an entry once its test
 * reports that the finding is gone. None is left.
 */
const KNOWN_FAILURES: Record<string, { key: string; reason: string }[]> = {};

const pairs = fs
  .readdirSync(fixtures)
  .filter(f => /\.output\.[cm]?[jt]sx?$/.test(f))
  .sort()
  .map(f => ({
    name: f.replace(/\.output\..*$/, ''),
    output: path.join(fixtures, f),
    input: path.join(fixtures, f.replace('.output.', '.input.')),
  }));

const added = new Map<string, Finding[]>();
const addedBy = (pair: (typeof pairs)[number]): Finding[] => {
  if (!added.has(pair.name)) added.set(pair.name, addedFindings(pair.input, pair.output));
  return added.get(pair.name)!;
};

describe('fixture outputs are lint-clean (no-unreachable-loop, no-unused-vars) beyond their inputs', () => {
  it('finds the fixtures, and every known failure names one', () => {
    expect(pairs.length).toBeGreaterThan(20);
    for (const p of pairs) expect(fs.existsSync(p.input), p.input).toBe(true);
    for (const name of Object.keys(KNOWN_FAILURES))
      expect(
        pairs.map(p => p.name),
        name,
      ).toContain(name);
  });

  for (const pair of pairs) {
    const known = KNOWN_FAILURES[pair.name] ?? [];
    it(`${pair.name}: no finding the input does not have`, () => {
      const left = addedBy(pair).filter(f => !known.some(k => k.key === f.key));
      expect(left.map(f => `${f.key} (${f.where})`)).toEqual([]);
    });
    for (const k of known) {
      it.fails(`${pair.name}: known failure, ${k.key}: ${k.reason}`, () => {
        expect(addedBy(pair).map(f => f.key)).not.toContain(k.key);
      });
    }
  }
});
