export interface Note {
  id: number;
  title: string;
  body: string;
}

const notes = new Map<number, Note>([
  [1, { id: 1, title: 'groceries', body: 'milk, eggs, bread' }],
  [2, { id: 2, title: 'standup', body: 'shipped the importer; next: the exporter; blocked on review' }],
]);
let nextId = 3;

export function listNotes(): Note[] {
  return [...notes.values()];
}

export function getNote(id: number): Note | undefined {
  return notes.get(id);
}

export function addNote(title: string, body: string): Note {
  const note = { id: nextId++, title, body };
  notes.set(note.id, note);
  return note;
}

export function removeNote(id: number): boolean {
  return notes.delete(id);
}
