export interface TreeNode {
  name: string;
  size?: number;
  children?: TreeNode[];
}

/** Every path in the tree, depth first. */
export function walk(node: TreeNode, prefix = ''): string[] {
  const here = prefix ? `${prefix}/${node.name}` : node.name;
  const below = (node.children ?? []).flatMap(child => walk(child, here));
  return [here, ...below];
}

/** Total size, through two mutually recursive functions. */
export function sizeOf(node: TreeNode): number {
  return (node.size ?? 0) + sizeOfChildren(node.children ?? []);
}

function sizeOfChildren(children: TreeNode[]): number {
  return children.reduce((sum, child) => sum + sizeOf(child), 0);
}

export function find(node: TreeNode, name: string): TreeNode | undefined {
  if (node.name === name) return node;
  for (const child of node.children ?? []) {
    const hit = find(child, name);
    if (hit) return hit;
  }
  return undefined;
}
