/**
 * Which unit of which stage acted on which file: an upgrade transform or repair that changed the file or found
 * something in it, an analysis unit that planned, marked or noted something in it, a rewrite unit that changed
 * its text. The fixtures' runs record it (test/fixtures.test.ts), and each shape page links the units that act
 * on its fixture (scripts/docs.ts); a user's run never asks for it.
 */
export type Stage = 'upgrade' | 'analysis' | 'rewrite';

/** `file` is as the stage names it: absolute within a stage, as the report names it from the pipeline. */
export type UnitTrace = (stage: Stage, unit: string, file: string) => void;
