/**
 * The inliner's labelled blocks tidied out of generated phases (src/rewrite/tidy.ts): each case is a
 * handler body as the phases print it, and what a person would have written instead. What cannot be
 * proven the same stays as it is.
 */
import { describe, expect, it } from 'vitest';
import { tidyInlinedBlocks } from '../src/rewrite/tidy.js';

const tidy = (lines: string[]) => tidyInlinedBlocks(lines.join('\n'), '  ', false).split('\n');

describe('tidyInlinedBlocks', () => {
  it('turns a block that ends by assigning its result into plain statements and a const', () => {
    expect(
      tidy([
        '{',
        '  let okResult!: boolean;',
        '  mcpInline: {',
        "    const answer = read('answer');",
        "    { okResult = answer.action === 'accept'; break mcpInline; }",
        '  }',
        '  if (!okResult) return 1;',
        '  return 2;',
        '}',
      ])
    ).toEqual(['{', "  const answer = read('answer');", "  const okResult: boolean = answer.action === 'accept';", '  if (!okResult) return 1;', '  return 2;', '}']);
  });

  it('makes an early exit an if/else, keeping the result a let', () => {
    expect(
      tidy([
        '{',
        '  let r: string | undefined;',
        '  mcpInline2: {',
        "    const result = read('result');",
        '    if (result.action !== \'accept\') { r = undefined; break mcpInline2; }',
        '    { r = String(result.content); break mcpInline2; }',
        '  }',
        '  return r;',
        '}',
      ])
    ).toEqual([
      '{',
      '  let r: string | undefined;',
      "  const result = read('result');",
      "  if (result.action !== 'accept') {",
      '    r = undefined;',
      '  } else {',
      '    r = String(result.content);',
      '  }',
      '  return r;',
      '}',
    ]);
  });

  it('drops the result where the round suspends inside the block, and the braces when nothing around names what it declares', () => {
    expect(
      tidy([
        '{',
        '  let okResult!: boolean;',
        '  mcpInline: {',
        '    const message: string = `Delete ${id}?`;',
        '    return call.suspend({ step: \'awaiting-answer\' }, { answer: ask(message) });',
        '  }',
        '}',
      ])
    ).toEqual(['{', '  const message: string = `Delete ${id}?`;', "  return call.suspend({ step: 'awaiting-answer' }, { answer: ask(message) });", '}']);
  });

  it("drops the result where only a local of the helper's with its name is named", () => {
    const out = tidy(['{', '  let name!: string;', '  mcpInline: {', '    {', "      const name = read('name');", '      return suspend(name);', '    }', '  }', '}']);
    expect(out).toEqual(['{', '  {', "    const name = read('name');", '    return suspend(name);', '  }', '}']);
  });

  it('keeps the braces when a name it declares is named beside it', () => {
    const out = tidy(['{', '  mcpInline: {', '    const answer = 1;', '    use(answer);', '  }', '  const answer = 2;', '  use(answer);', '}']);
    expect(out).toEqual(['{', '  {', '    const answer = 1;', '    use(answer);', '  }', '  const answer = 2;', '  use(answer);', '}']);
  });

  it('leaves a block that a break leaves from inside a loop labelled', () => {
    const body = ['{', '  let r!: number;', '  mcpInline: {', '    for (const x of xs) {', '      if (x) { r = x; break mcpInline; }', '    }', '    { r = 0; break mcpInline; }', '  }', '  return r;', '}'];
    // The block's end goes; the break from the loop keeps the label.
    expect(tidy(body)).toEqual(['{', '  let r!: number;', '  mcpInline: {', '    for (const x of xs) {', '      if (x) { r = x; break mcpInline; }', '    }', '    r = 0;', '  }', '  return r;', '}']);
  });

  it('moves a multi-line template literal without touching its text', () => {
    const out = tidy(['{', '  mcpInline: {', '    const text = `a', '    b`;', '    return text;', '  }', '}']);
    expect(out).toEqual(['{', '  const text = `a', '    b`;', '  return text;', '}']);
  });

  it('leaves a result assigned twice a let', () => {
    const out = tidy(['{', '  let r!: number;', '  mcpInline: {', '    { r = 1; break mcpInline; }', '  }', '  r = 2;', '  return r;', '}']);
    expect(out).toEqual(['{', '  let r!: number;', '  r = 1;', '  r = 2;', '  return r;', '}']);
  });

  it('drops what follows a block that always returns once no break leaves it', () => {
    const out = tidy(['{', '  let r!: string;', '  mcpInline: {', '    const a = 1;', '    return suspend(a);', '  }', '  const name = r;', '  return name;', '}']);
    expect(out).toEqual(['{', '  const a = 1;', '  return suspend(a);', '}']);
  });

  it("takes the breaks out of a last try's blocks, and makes an early exit inside it an if/else", () => {
    const out = tidy([
      '{',
      '  let r: boolean;',
      '  mcpInline: {',
      '    try {',
      "      const result = read('result');",
      "      if (result.action === 'decline') { r = false; break mcpInline; }",
      '      { r = true; break mcpInline; }',
      '    } catch {',
      '      // fail open',
      '      { r = true; break mcpInline; }',
      '    }',
      '  }',
      '  return r;',
      '}',
    ]);
    expect(out).toEqual([
      '{',
      '  let r: boolean;',
      '  try {',
      "    const result = read('result');",
      "    if (result.action === 'decline') {",
      '      r = false;',
      '    } else {',
      '      r = true;',
      '    }',
      '  } catch {',
      '    // fail open',
      '    r = true;',
      '  }',
      '  return r;',
      '}',
    ]);
  });

  it('makes early exits in a row one else-if chain, their comments after the branch they end', () => {
    const body = ['{', '  let r!: number;', '  mcpInline: {', '    if (a) { r = 1; break mcpInline; } // one', '    if (b) { r = 2; break mcpInline; }', '    if (c) { r = 3; break mcpInline; }', '    { r = 4; break mcpInline; }', '  }', '  return r;', '}'];
    expect(tidy(body)).toEqual([
      '{',
      '  let r!: number;',
      '  if (a) {',
      '    r = 1; // one',
      '  } else if (b) {',
      '    r = 2;',
      '  } else if (c) {',
      '    r = 3;',
      '  } else {',
      '    r = 4;',
      '  }',
      '  return r;',
      '}',
    ]);
  });

  it("takes the statements between two exits into the first one's else, one level deeper", () => {
    const body = ['{', '  let r!: number;', '  mcpInline: {', '    if (a) { r = 1; break mcpInline; }', '    if (b) { r = 2; break mcpInline; }', '    const c = read();', '    if (c) { r = 3; break mcpInline; }', '    { r = 4; break mcpInline; }', '  }', '  return r;', '}'];
    expect(tidy(body)).toEqual([
      '{',
      '  let r!: number;',
      '  if (a) {',
      '    r = 1;',
      '  } else if (b) {',
      '    r = 2;',
      '  } else {',
      '    const c = read();',
      '    if (c) {',
      '      r = 3;',
      '    } else {',
      '      r = 4;',
      '    }',
      '  }',
      '  return r;',
      '}',
    ]);
  });

  it('keeps the label of a block whose exits would nest three elses deep', () => {
    const body = ['{', '  let r!: number;', '  mcpInline: {', '    if (a) { r = 1; break mcpInline; }', '    const b = read();', '    if (b) { r = 2; break mcpInline; }', '    const c = read();', '    if (c) { r = 3; break mcpInline; }', '    { r = 4; break mcpInline; }', '  }', '  return r;', '}'];
    expect(tidy(body)).toEqual(['{', '  let r!: number;', '  mcpInline: {', '    if (a) { r = 1; break mcpInline; }', '    const b = read();', '    if (b) { r = 2; break mcpInline; }', '    const c = read();', '    if (c) { r = 3; break mcpInline; }', '    r = 4;', '  }', '  return r;', '}']);
  });

  it('takes a result written over several lines out of its block whole', () => {
    const out = tidy(['{', '  let r!: object;', '  mcpInline: {', '    { r = make({', '      a: 1,', '    }); break mcpInline; }', '  }', '  return r;', '}']);
    expect(out).toEqual(['{', '  const r: object = make({', '    a: 1,', '  });', '  return r;', '}']);
  });

  it('keeps the label of an early exit when what follows it declares a name a closure before it reads', () => {
    // In an else, `suffix` would be out of the closure's scope: a ReferenceError, or another `suffix` read.
    const body = [
      '{',
      '  let r!: string;',
      '  mcpInline: {',
      '    const decorate = (s: string) => `${s}${suffix}`;',
      "    if (name === 'skip') { r = decorate('skipped'); break mcpInline; }",
      "    const suffix = '!';",
      "    { r = decorate('kept'); break mcpInline; }",
      '  }',
      '  return r;',
      '}',
    ];
    expect(tidy(body)).toEqual([
      '{',
      '  let r!: string;',
      '  mcpInline: {',
      '    const decorate = (s: string) => `${s}${suffix}`;',
      "    if (name === 'skip') { r = decorate('skipped'); break mcpInline; }",
      "    const suffix = '!';",
      "    r = decorate('kept');",
      '  }',
      '  return r;',
      '}',
    ]);
  });

  it('keeps the label of an early exit whose comments would have no place in an if/else', () => {
    const body = ['{', '  let r!: number;', '  mcpInline: {', '    if (a) { r = 1; /* free */ break mcpInline; }', '    { r = 2; break mcpInline; }', '  }', '  return r;', '}'];
    expect(tidy(body)).toEqual(['{', '  let r!: number;', '  mcpInline: {', '    if (a) { r = 1; /* free */ break mcpInline; }', '    r = 2;', '  }', '  return r;', '}']);
  });
});
