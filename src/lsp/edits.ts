/**
 * The migration as LSP edits: minimal TextEdits for the document (line diff with the `diff` package,
 * whole-text replacement when the diff gives up), and a WorkspaceEdit that also creates the
 * requestState module when the run creates it.
 */
import { diffLines } from 'diff';
import type { CreateFile, TextDocumentEdit, TextEdit, WorkspaceEdit } from 'vscode-languageserver';
import type { TextDocument } from 'vscode-languageserver-textdocument';

/** Edits turning `doc`'s text into `after`: one per changed run of lines. */
export function minimalEdits(doc: TextDocument, after: string): TextEdit[] {
  const before = doc.getText();
  if (before === after) return [];
  const changes = diffLines(before, after, { maxEditLength: 20_000 });
  if (!changes) return [{ range: { start: doc.positionAt(0), end: doc.positionAt(before.length) }, newText: after }];
  const edits: TextEdit[] = [];
  let offset = 0;
  for (let i = 0; i < changes.length; i++) {
    const c = changes[i]!;
    if (!c.added && !c.removed) {
      offset += c.value.length;
      continue;
    }
    const start = offset;
    let newText = '';
    for (; i < changes.length && (changes[i]!.added || changes[i]!.removed); i++) {
      if (changes[i]!.removed) offset += changes[i]!.value.length;
      else newText += changes[i]!.value;
    }
    i--;
    edits.push({ range: { start: doc.positionAt(start), end: doc.positionAt(offset) }, newText });
  }
  return edits;
}

export interface CreatedFile {
  uri: string;
  text: string;
}

export interface EditCapabilities {
  /** The client takes `documentChanges` (versioned edits). */
  documentChanges: boolean;
  /** The client can create files in a WorkspaceEdit. */
  createFiles: boolean;
}

/**
 * The WorkspaceEdit for one document's migration. A created file never overwrites an existing one:
 * `CreateFile` with `ignoreIfExists`, and the caller leaves the file out when it already exists.
 */
export function workspaceEdit(doc: TextDocument, edits: TextEdit[], created: CreatedFile[], caps: EditCapabilities): WorkspaceEdit {
  if (!caps.documentChanges) return { changes: { [doc.uri]: edits } };
  const documentChanges: (TextDocumentEdit | CreateFile)[] = [{ textDocument: { uri: doc.uri, version: doc.version }, edits }];
  if (caps.createFiles) {
    for (const file of created) {
      documentChanges.push({ kind: 'create', uri: file.uri, options: { ignoreIfExists: true, overwrite: false } });
      documentChanges.push({
        textDocument: { uri: file.uri, version: null },
        edits: [{ range: { start: { line: 0, character: 0 }, end: { line: 0, character: 0 } }, newText: file.text }],
      });
    }
  }
  return { documentChanges };
}
