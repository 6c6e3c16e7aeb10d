/** The reading list this server keeps, for as long as the process runs. */
export interface Entry {
  title: string;
  url?: string;
  addedAt: number;
}

const entries: Entry[] = [
  { title: 'The Mythical Man-Month', addedAt: 1 },
  { title: 'A Philosophy of Software Design', url: 'https://web.stanford.edu/~ouster/cgi-bin/book.php', addedAt: 2 },
];
let sequence = entries.length;

export function allEntries(): readonly Entry[] {
  return entries;
}

export function addEntry(title: string, url?: string): Entry {
  const entry: Entry = { title, addedAt: ++sequence, ...(url ? { url } : {}) };
  entries.push(entry);
  return entry;
}

export function findEntry(title: string): Entry | undefined {
  const wanted = title.trim().toLowerCase();
  return entries.find(e => e.title.toLowerCase() === wanted);
}

export function removeEntry(entry: Entry): void {
  const at = entries.indexOf(entry);
  if (at >= 0) entries.splice(at, 1);
}
