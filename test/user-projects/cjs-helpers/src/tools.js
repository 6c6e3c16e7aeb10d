const { z } = require('zod');
const { server } = require('./server');
const { confirm } = require('./confirm');

const buckets = new Map([['logs', 12], ['tmp', 3]]);

server.registerTool('empty_bucket', { description: 'Empty a bucket', inputSchema: { bucket: z.string() } }, async ({ bucket }) => {
  if (!buckets.has(bucket)) return { content: [{ type: 'text', text: `no bucket ${bucket}` }], isError: true };
  if (!(await confirm(server, `Empty ${bucket} (${buckets.get(bucket)} objects)?`))) {
    return { content: [{ type: 'text', text: `${bucket} kept` }] };
  }
  buckets.set(bucket, 0);
  return { content: [{ type: 'text', text: `${bucket} emptied` }] };
});

server.registerTool('buckets', { description: 'List the buckets' }, async () => ({
  content: [{ type: 'text', text: [...buckets].map(([name, n]) => `${name}: ${n}`).join(', ') }],
}));
