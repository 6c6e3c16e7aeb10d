// A handle made in the handler and set up before the question by a call that also does something outside it
// (login() sets the session's user and counts the login with the auth service). Journaled, the later round's
// new session would never be logged in; run again, the login is counted once per round. Neither keeps the
// handler's meaning, so the call is left to run again and marked, to be split by hand.
import { McpServer } from '@modelcontextprotocol/server';
import { ask, resumable, verifyRequestState } from './mcp-migrate-state.js';

/** What reached the auth service. */
const seen = { logins: 0 };

class Session {
  private user?: string;
  async login(user: string): Promise<void> {
    seen.logins++;
    this.user = user;
  }
  whoami(): string {
    return this.user ?? 'nobody';
  }
}

const server = new McpServer({ name: 'handle-set-up-with-outside-work', version: '1.0.0' }, { requestState: { verify: verifyRequestState } });

resumable(server).registerTool('whoami', {}, async () => {
  const session = new Session();
  // mcp-migrate: tools/call whoami sets up session, which it makes again on each round of a 2026-07-28 call, with session.login('alice'), which also does something outside it: journaled, a later round's session would not be set up; run again, what it does outside is done once per round. It is left to run again: split the set-up from the outside work, or migrate by hand
  await session.login('alice');
  const answer = await ask(server.server, 'answer').elicitInput({ message: 'Show?', requestedSchema: { type: 'object', properties: {} } });
  return { content: [{ type: 'text', text: `${answer.action}: ${session.whoami()}` }] };
});
