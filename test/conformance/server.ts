// A legacy (SDK 1.x) server written to the conformance tool's server contract: the tools, prompts
// and resources its 2026-07-28 scenarios call, the input-required ones as a 1.x server wrote them
// (awaiting elicitInput, createMessage and listRoots). test/conformance.test.ts migrates it with
// mcp-migrate and runs the conformance tool against the result.
import { McpServer, ResourceTemplate } from '@modelcontextprotocol/sdk/server/mcp.js';
import { completable } from '@modelcontextprotocol/sdk/server/completable.js';
import { z } from 'zod';

// A 1x1 red PNG, and a short silent WAV.
const PNG = 'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8DwHwAFBQIAX8jx0gAAAABJRU5ErkJggg==';
const WAV = 'UklGRiQAAABXQVZFZm10IBAAAAABAAEARKwAAIhYAQACABAAZGF0YQAAAAA=';
const sleep = (ms: number) => new Promise(resolve => setTimeout(resolve, ms));
const askName = { type: 'object' as const, properties: { name: { type: 'string' as const } }, required: ['name'] };

export function buildServer(): McpServer {
  const server = new McpServer({ name: 'legacy-conformance-server', version: '1.0.0' }, { capabilities: { logging: {} } });

  server.registerTool('test_simple_text', { description: 'A text result' }, async () => ({
    content: [{ type: 'text', text: 'This is a simple text response for testing.' }],
  }));
  server.registerTool('test_image_content', { description: 'An image result' }, async () => ({
    content: [{ type: 'image', data: PNG, mimeType: 'image/png' }],
  }));
  server.registerTool('test_audio_content', { description: 'An audio result' }, async () => ({
    content: [{ type: 'audio', data: WAV, mimeType: 'audio/wav' }],
  }));
  server.registerTool('test_embedded_resource', { description: 'An embedded resource' }, async () => ({
    content: [{ type: 'resource', resource: { uri: 'test://embedded-resource', mimeType: 'text/plain', text: 'This is an embedded resource content.' } }],
  }));
  server.registerTool('test_multiple_content_types', { description: 'Text, image and resource' }, async () => ({
    content: [
      { type: 'text', text: 'Multiple content types test:' },
      { type: 'image', data: PNG, mimeType: 'image/png' },
      { type: 'resource', resource: { uri: 'test://mixed-content-resource', mimeType: 'application/json', text: '{"test":"data","value":123}' } },
    ],
  }));
  // Logs as it works, on the connection: the migration sends these with the request, at the level it asks for.
  server.registerTool('test_logging_tool', { description: 'Logs as it works' }, async () => {
    for (const step of ['started', 'halfway', 'completed']) {
      await server.sendLoggingMessage({ level: 'info', logger: 'conformance', data: `Tool execution ${step}` });
      await sleep(20);
    }
    return { content: [{ type: 'text', text: 'Logging test completed' }] };
  });
  server.registerTool('test_error_handling', { description: 'Always fails' }, async () => {
    throw new Error('This tool intentionally returns an error for testing');
  });
  server.registerTool('test_tool_with_progress', { description: 'Reports progress' }, async extra => {
    const progressToken = extra._meta?.progressToken;
    for (const progress of [0, 50, 100]) {
      if (progressToken !== undefined) await extra.sendNotification({ method: 'notifications/progress', params: { progressToken, progress, total: 100 } });
      if (progress < 100) await sleep(50);
    }
    return { content: [{ type: 'text', text: 'Progress reported' }] };
  });

  // input_required scenarios: what a 1.x server awaited, the migration turns into rounds.
  server.registerTool('test_input_required_result_elicitation', { description: 'Asks a name' }, async () => {
    const user_name = await server.server.elicitInput({ message: 'What is your name?', requestedSchema: askName });
    return { content: [{ type: 'text', text: `Hello, ${user_name.content?.name ?? 'stranger'}!` }] };
  });
  server.registerTool('test_input_required_result_sampling', { description: 'Asks the model' }, async () => {
    const capital_question = await server.server.createMessage({
      messages: [{ role: 'user', content: { type: 'text', text: 'What is the capital of France?' } }],
      maxTokens: 100,
    });
    return { content: [{ type: 'text', text: capital_question.content.type === 'text' ? capital_question.content.text : '' }] };
  });
  server.registerTool('test_input_required_result_list_roots', { description: 'Lists the roots' }, async () => {
    const client_roots = await server.server.listRoots();
    return { content: [{ type: 'text', text: `Roots: ${client_roots.roots.map(root => root.uri).join(', ')}` }] };
  });
  server.registerTool('test_input_required_result_request_state', { description: 'Carries state' }, async () => {
    const startedAt = 'round-1';
    const confirm = await server.server.elicitInput({
      message: 'Please confirm',
      requestedSchema: { type: 'object', properties: { ok: { type: 'boolean' } }, required: ['ok'] },
    });
    return { content: [{ type: 'text', text: `state-ok (${startedAt}, ${confirm.action})` }] };
  });
  server.registerTool('test_input_required_result_multiple_inputs', { description: 'Asks three things at once' }, async () => {
    const [user_name, greeting, client_roots] = await Promise.all([
      server.server.elicitInput({ message: 'What is your name?', requestedSchema: askName }),
      server.server.createMessage({ messages: [{ role: 'user', content: { type: 'text', text: 'Generate a greeting' } }], maxTokens: 50 }),
      server.server.listRoots(),
    ]);
    const text = greeting.content.type === 'text' ? greeting.content.text : '';
    return { content: [{ type: 'text', text: `${text} ${user_name.content?.name} (${client_roots.roots.length} roots)` }] };
  });
  server.registerTool('test_input_required_result_multi_round', { description: 'Asks twice' }, async () => {
    const step1 = await server.server.elicitInput({ message: 'Step 1: What is your name?', requestedSchema: askName });
    const step2 = await server.server.elicitInput({
      message: `Step 2: What is your favorite color, ${step1.content?.name}?`,
      requestedSchema: { type: 'object', properties: { color: { type: 'string' } }, required: ['color'] },
    });
    return { content: [{ type: 'text', text: `${step1.content?.name} likes ${step2.content?.color}` }] };
  });
  server.registerTool('test_input_required_result_tampered_state', { description: 'Carries sealed state' }, async () => {
    const confirm = await server.server.elicitInput({
      message: 'Please confirm',
      requestedSchema: { type: 'object', properties: { ok: { type: 'boolean' } }, required: ['ok'] },
    });
    return { content: [{ type: 'text', text: `confirmed: ${confirm.action}` }] };
  });
  server.registerTool('test_input_required_result_capabilities', { description: 'Asks what the client can answer' }, async () => {
    const capabilities = server.server.getClientCapabilities();
    if (capabilities?.elicitation) {
      const answer = await server.server.elicitInput({ message: 'What is your name?', requestedSchema: askName });
      return { content: [{ type: 'text', text: `elicited: ${answer.action}` }] };
    }
    if (capabilities?.sampling) {
      const sample = await server.server.createMessage({ messages: [{ role: 'user', content: { type: 'text', text: 'Say hello' } }], maxTokens: 20 });
      return { content: [{ type: 'text', text: `sampled: ${sample.model}` }] };
    }
    return { content: [{ type: 'text', text: 'the client can answer nothing' }] };
  });

  server.registerPrompt('test_simple_prompt', { description: 'A simple prompt' }, () => ({
    messages: [{ role: 'user', content: { type: 'text', text: 'This is a simple prompt for testing.' } }],
  }));
  server.registerPrompt(
    'test_prompt_with_arguments',
    { description: 'A prompt with arguments', argsSchema: { arg1: completable(z.string(), value => ['paris', 'park', 'party'].filter(v => v.startsWith(value))), arg2: z.string() } },
    ({ arg1, arg2 }) => ({ messages: [{ role: 'user', content: { type: 'text', text: `Prompt with arguments: arg1='${arg1}', arg2='${arg2}'` } }] })
  );
  server.registerPrompt('test_prompt_with_embedded_resource', { description: 'A prompt with a resource', argsSchema: { resourceUri: z.string() } }, ({ resourceUri }) => ({
    messages: [
      { role: 'user', content: { type: 'resource', resource: { uri: resourceUri, mimeType: 'text/plain', text: 'Embedded resource content for testing.' } } },
      { role: 'user', content: { type: 'text', text: 'Please process the embedded resource above.' } },
    ],
  }));
  server.registerPrompt('test_prompt_with_image', { description: 'A prompt with an image' }, () => ({
    messages: [
      { role: 'user', content: { type: 'image', data: PNG, mimeType: 'image/png' } },
      { role: 'user', content: { type: 'text', text: 'Please analyze the image above.' } },
    ],
  }));
  server.registerPrompt('test_input_required_result_prompt', { description: 'A prompt that asks first' }, async () => {
    const user_context = await server.server.elicitInput({
      message: 'What context should the prompt use?',
      requestedSchema: { type: 'object', properties: { context: { type: 'string' } }, required: ['context'] },
    });
    return { messages: [{ role: 'user', content: { type: 'text', text: `Context: ${user_context.content?.context ?? 'none'}` } }] };
  });

  server.registerResource('static-text', 'test://static-text', { mimeType: 'text/plain' }, async uri => ({
    contents: [{ uri: uri.href, mimeType: 'text/plain', text: 'This is the content of the static text resource.' }],
  }));
  server.registerResource('static-binary', 'test://static-binary', { mimeType: 'image/png' }, async uri => ({
    contents: [{ uri: uri.href, mimeType: 'image/png', blob: PNG }],
  }));
  server.registerResource('template', new ResourceTemplate('test://template/{id}/data', { list: undefined }), { mimeType: 'application/json' }, async (uri, { id }) => ({
    contents: [{ uri: uri.href, mimeType: 'application/json', text: JSON.stringify({ id, templateTest: true, data: `Data for ID: ${id}` }) }],
  }));
  return server;
}
