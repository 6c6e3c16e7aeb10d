// Methods named like the SDK's on objects that are not MCP servers: nothing to migrate.
class ChatClient {
  async createMessage(params: { text: string }): Promise<{ id: string }> {
    return { id: params.text };
  }
  async listRoots(): Promise<string[]> {
    return [];
  }
}

const chat = new ChatClient();

export async function post(text: string): Promise<string> {
  const message = await chat.createMessage({ text });
  const roots = await chat.listRoots();
  return `${message.id} ${roots.length}`;
}
