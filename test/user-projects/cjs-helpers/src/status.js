const { z } = require('zod');
const { server } = require('./server');

// Registered in SDK 1.x's shorthand, in a module that requires nothing of the SDK itself.
server.tool('bucket_size', 'How many objects a bucket holds', { bucket: z.string() }, async ({ bucket }) => ({
  content: [{ type: 'text', text: `${bucket}: ${bucket === 'logs' ? 12 : 3}` }],
}));
