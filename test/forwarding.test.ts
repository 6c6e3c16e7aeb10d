/**
 * src/analysis/forwarding.ts: which wrappers of the project hand a registered callback its arguments and return
 * its result, so that the callback stands for the handler. A wrapper that keeps the result in a const and returns
 * it after its own work (a tracer's span) is one; the reason given for the others must be true of them.
 */
import { describe, expect, it } from 'vitest';
import { Project, SyntaxKind } from 'ts-morph';
import { forwardingProblem, passesArgumentsThrough, returnedFunction } from '../src/analysis/forwarding.js';
import type { FunctionLike } from '../src/analysis/functions.js';

/** The problem of the wrapper `traced` declared in `wrapper`, for the callback its registration hands it (context at 1). */
function problemOf(wrapper: string): string | undefined {
  const project = new Project({ useInMemoryFileSystem: true });
  const sf = project.createSourceFile(
    '/w.ts',
    `${wrapper}\ndeclare const server: { registerTool(n: string, c: object, h: Function): void };\nserver.registerTool('t', {}, traced(async (args: object, ctx: object) => ({ content: [] })));\n`,
  );
  const call = sf.getDescendantsOfKind(SyntaxKind.CallExpression).find(c => c.getExpression().getText() === 'traced')!;
  const fn = sf.getVariableDeclarationOrThrow('traced').getInitializerOrThrow() as unknown as FunctionLike;
  const inner = returnedFunction(fn)!;
  const problem = forwardingProblem(fn, fn.getParameters()[0]!, inner, 1);
  expect(passesArgumentsThrough(call, call.getArguments()[0]!, 1)).toBe(problem === undefined);
  return problem;
}

describe('wrappers that pass a callback through', () => {
  it('return await cb(...args), in a try block or not: passes through', () => {
    expect(
      problemOf(
        'const traced = (cb: Function) => async (...args: unknown[]) => { try { return await cb(...args); } finally { console.error("done"); } };',
      ),
    ).toBeUndefined();
  });

  it('a tracer keeping the result in a const and returning it after ending its span: passes through', () => {
    const wrapper = `const traced = (cb: Function) => async (...args: unknown[]) => {
  const span = { end() {} };
  try {
    const result = await cb(...args);
    span.end();
    return result;
  } catch (error) {
    span.end();
    throw error;
  }
};`;
    expect(problemOf(wrapper)).toBeUndefined();
  });

  it('a result changed before it is returned, or one of several returns another value: does not, and says so', () => {
    expect(
      problemOf(
        'const traced = (cb: Function) => async (...args: unknown[]) => { const result = await cb(...args); return { ...result, traced: true }; };',
      ),
    ).toMatch(/does not return the callback's result as it is/);
    expect(
      problemOf(
        'const traced = (cb: Function) => async (...args: unknown[]) => { const result = await cb(...args); if (!result) return { content: [] }; return result; };',
      ),
    ).toMatch(/does not return the callback's result as it is/);
    expect(
      problemOf(
        'const traced = (cb: Function) => async (...args: unknown[]) => { let result = await cb(...args); result = { content: [] }; return result; };',
      ),
    ).toMatch(/does not return the callback's result as it is/);
  });
});
