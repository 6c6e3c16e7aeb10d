export interface Note {
  title: string;
  body: string;
  updated: number;
}

const notes = new Map<string, Note>();
let revision = 0;

export function findNote(title: string): Note | undefined {
  return notes.get(title.toLowerCase());
}

export function saveNote(title: string, body: string): Note {
  const note = { title, body, updated: ++revision };
  notes.set(title.toLowerCase(), note);
  return note;
}

export function allNotes(): Note[] {
  return [...notes.values()].sort((a, b) => a.title.localeCompare(b.title));
}
