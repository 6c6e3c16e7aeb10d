import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';

// One process per session: a module-level flag lives exactly as long as the session.
let sessionAutoApprove = false;

const CONFIRM_OFF = /^(0|false|off|no)$/i.test(process.env.PAID_CONFIRM_SPEND ?? '');
const THRESHOLD = Number(process.env.PAID_CONFIRM_THRESHOLD || 0);

export interface ConfirmResult {
  ok: boolean;
  reason?: string;
}

/**
 * Asks the user to confirm a charge. Free calls, a session-wide approval, the off switch, charges under
 * the threshold and clients that cannot be asked all proceed.
 */
export async function confirmSpend(server: McpServer, opts: { usd: number; label: string }): Promise<ConfirmResult> {
  const { usd, label } = opts;
  if (usd <= 0) return { ok: true }; // free
  if (sessionAutoApprove) return { ok: true }; // approved for the rest of the session
  if (CONFIRM_OFF) return { ok: true }; // disabled by the operator
  if (usd <= THRESHOLD) return { ok: true }; // cheap enough to skip

  const caps = server.server.getClientCapabilities?.();
  if (!caps?.elicitation) return { ok: true }; // the client cannot be asked: proceed

  try {
    const result = await server.server.elicitInput({
      message: `Charge for ${label}: $${usd.toFixed(2)}. Approve?`,
      requestedSchema: {
        type: 'object',
        properties: {
          approve_all_session: { type: 'boolean', title: "Approve all charges for this session (don't ask again)", default: false },
        },
      },
    });
    const content = result.content as { approve_all_session?: boolean } | undefined;
    if (content?.approve_all_session) sessionAutoApprove = true;
    // Only an explicit decline stops the charge.
    if (result.action === 'decline') return { ok: false, reason: 'Charge declined: nothing was generated or charged.' };
    return { ok: true };
  } catch {
    // The prompt could not be shown: fail open, the tool's cost footer still says what was charged.
    return { ok: true };
  }
}
