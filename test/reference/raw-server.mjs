// A hand-rolled stdio JSON-RPC server for verify's failure tests; not built on any SDK.
// Usage: node raw-server.mjs <mode>
//   crash-on-call   answers the handshake (either era), then exits with code 7 on tools/call
//   hang-on-call    answers the handshake, then never answers tools/call
//   push-on-modern  answers server/discover for 2026-07-28, then on tools/call sends the client an
//                   elicitation/create request of its own (forbidden on that era) and never answers the call
import { createInterface } from 'node:readline';

const mode = process.argv[2];
const send = (message) => process.stdout.write(JSON.stringify({ jsonrpc: '2.0', ...message }) + '\n');
const serverInfo = { name: 'raw-server', version: '0.0.0' };

createInterface({ input: process.stdin }).on('line', (line) => {
  const message = JSON.parse(line);
  if (message.id === undefined || message.method === undefined) return;
  switch (message.method) {
    case 'server/discover':
      send({
        id: message.id,
        result: {
          supportedVersions: ['2026-07-28'],
          capabilities: { tools: {} },
          resultType: 'complete',
          _meta: { 'io.modelcontextprotocol/serverInfo': serverInfo },
        },
      });
      return;
    case 'initialize':
      send({ id: message.id, result: { protocolVersion: message.params.protocolVersion, capabilities: { tools: {} }, serverInfo } });
      return;
    case 'tools/call':
      if (mode === 'hang-on-call') return;
      if (mode === 'crash-on-call') {
        console.error('fatal: tool handler blew up');
        process.exit(7);
      }
      send({ id: 'push-1', method: 'elicitation/create', params: { message: 'Continue?', requestedSchema: { type: 'object', properties: {} } } });
      return;
    default:
      send({ id: message.id, error: { code: -32601, message: 'Method not found' } });
  }
});
