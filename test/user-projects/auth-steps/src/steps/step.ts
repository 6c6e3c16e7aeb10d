/** A step a tool runs: checks, questions, lookups. */
export interface Step {
  execute(input: string): Promise<string>;
}
