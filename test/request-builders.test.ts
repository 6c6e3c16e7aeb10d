import { describe, expect, it } from 'vitest';
import { referencedNames, requestSharing } from '../src/rewrite/requests.js';
import type { RequestPlan } from '../src/plan.js';

const request = (key: string, paramsText: string): RequestPlan => ({
  key,
  kind: 'sampling',
  builder: 'createMessage',
  reader: 'samplingResult',
  paramsText,
  replace: { start: 0, end: 0 },
});

describe('request builders', () => {
  it('lists the names a request reads, not its property names', () => {
    expect(referencedNames('{ message: `Keep ${flag} (now ${flags[flag].on})?`, requestedSchema: schema, note }')).toEqual(['flag', 'flags', 'schema', 'note']);
  });

  it('does not move a request that awaits or declares a function', () => {
    expect(referencedNames('{ message: await prompt() }')).toBeUndefined();
    expect(referencedNames('{ messages: items.map(i => i.text) }')).toBeUndefined();
  });

  it('declares a request printed twice once, with the body locals it reads as typed parameters', () => {
    const taken = new Set<string>(['askForLine']);
    const sharing = requestSharing({
      inline: (r, _indent) => `inputRequired.createMessage(${r.paramsText})`,
      bodyNames: new Set(['story', 'i']),
      localType: name => (name === 'i' ? 'number' : 'string'),
      allocate: base => (taken.has(base) ? `${base}2` : base),
      isTs: true,
      arrowParam: name => name,
      indent: '  ',
    });
    const line = request('line', '{ text: `${i}: ${story} in ${env}` }');
    const once = request('once', '{ text: story }');
    const printed = [1, 2].map(() => `      line: ${sharing.placeholder(line, '      ')},`);
    printed.push(`      once: ${sharing.placeholder(once, '      ')},`);
    const { declarations, lines } = sharing.resolve(printed);
    expect(declarations).toEqual(['  const askForLine2 = (i: number, story: string) => inputRequired.createMessage({ text: `${i}: ${story} in ${env}` });']);
    expect(lines).toEqual(['      line: askForLine2(i, story),', '      line: askForLine2(i, story),', '      once: inputRequired.createMessage({ text: story }),']);
  });

  it('leaves a request inline in TypeScript when a local it reads has no type to write', () => {
    const sharing = requestSharing({
      inline: r => `inputRequired.createMessage(${r.paramsText})`,
      bodyNames: new Set(['question']),
      localType: () => undefined,
      allocate: base => base,
      isTs: true,
      arrowParam: name => name,
      indent: '  ',
    });
    const r = request('answer', '{ text: question }');
    const { declarations, lines } = sharing.resolve([sharing.placeholder(r, ''), sharing.placeholder(r, '')]);
    expect(declarations).toEqual([]);
    expect(lines).toEqual(['inputRequired.createMessage({ text: question })', 'inputRequired.createMessage({ text: question })']);
  });
});
