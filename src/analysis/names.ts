/** Fresh names for what the rewrite introduces, never one already taken: `base`, then `base2`, `base3`... */
export function nameAllocator(taken: Iterable<string>): (base: string) => string {
  const used = new Set(taken);
  return base => {
    let name = base;
    for (let i = 2; used.has(name); i++) name = `${base}${i}`;
    used.add(name);
    return name;
  };
}
