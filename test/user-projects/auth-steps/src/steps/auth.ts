import type { Step } from './step.js';

/** Checks the caller's token; counts the checks for the audit. */
export class AuthCheck implements Step {
  checks = 0;

  async execute(input: string): Promise<string> {
    this.checks++;
    return `ok:${input}`;
  }
}
