// A handle made in the handler and set up before the question by a call that also does something outside it
// (login() sets the session's user and counts the login with the auth service). Journaled, the later round's
// new session would never be logged in; run again, the login is counted once per round. Neither keeps the
// handler's meaning, so the call is left to run again and marked, to be split by hand.
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';

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

const server = new McpServer({ name: 'handle-set-up-with-outside-work', version: '1.0.0' });

server.registerTool('whoami', {}, async () => {
  const session = new Session();
  await session.login('alice');
  const answer = await server.server.elicitInput({ message: 'Show?', requestedSchema: { type: 'object', properties: {} } });
  return { content: [{ type: 'text', text: `${answer.action}: ${session.whoami()}` }] };
});
