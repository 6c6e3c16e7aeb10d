export interface Note {
  id: number;
  text: string;
  tags: string[];
}

const notes = new Map<number, Note>();
let nextId = 1;

export const store = {
  add(text: string, tags: string[]): Note {
    const note = { id: nextId++, text, tags };
    notes.set(note.id, note);
    return note;
  },
  get(id: number): Note | undefined {
    return notes.get(id);
  },
  remove(id: number): boolean {
    return notes.delete(id);
  },
  list(tag?: string): Note[] {
    return [...notes.values()].filter(n => tag === undefined || n.tags.includes(tag));
  },
};
