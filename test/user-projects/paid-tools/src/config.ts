export interface Config {
  /** Files under this size are deleted without asking. */
  askAboveBytes: number;
  trash: boolean;
}

// Set once at startup from the environment; read by the tools.
export let config: Config = { askAboveBytes: 1024, trash: true };

export function loadConfig(env: NodeJS.ProcessEnv): void {
  config = { askAboveBytes: Number(env.PAID_ASK_ABOVE ?? 1024), trash: env.PAID_TRASH !== 'off' };
}
