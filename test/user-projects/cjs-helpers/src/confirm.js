// Asks the user to confirm a destructive action; anything but a ticked box is a no.
async function confirm(server, message) {
  const res = await server.server.elicitInput({
    message,
    requestedSchema: { type: 'object', properties: { ok: { type: 'boolean', title: 'Confirm' } }, required: ['ok'] },
  });
  return res.action === 'accept' && Boolean(res.content && res.content.ok);
}

module.exports = { confirm };
