/**
 * @typedef {{ name: string, servings: number, ingredients: string[] }} Recipe
 */

/** @type {Recipe[]} */
export const recipes = [
  { name: 'pancakes', servings: 4, ingredients: ['flour', 'milk', 'eggs'] },
  { name: 'omelette', servings: 1, ingredients: ['eggs', 'cheese'] },
];

/**
 * @param {import('@modelcontextprotocol/sdk/server/mcp.js').McpServer} server
 * @param {Recipe} recipe
 * @returns {Promise<number | undefined>} the servings the user asked for, or undefined
 */
export async function askServings(server, recipe) {
  const answer = await server.server.elicitInput({
    message: `How many servings of ${recipe.name}? (recipe makes ${recipe.servings})`,
    requestedSchema: {
      type: 'object',
      properties: { servings: { type: 'integer', minimum: 1, maximum: 12, title: 'Servings' } },
      required: ['servings'],
    },
  });
  if (answer.action !== 'accept') return undefined;
  return Number(answer.content?.servings);
}
