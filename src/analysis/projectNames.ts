/**
 * What the project's files name, read from their syntax alone: enough to say "no" to two questions
 * the type checker or the language service would answer slowly.
 *
 * - Whether a call through a property (`id.trim()`, `reply.content.text.trim()`) may reach a function of
 *   the project. Asking TypeScript what `trim` is there means typing `id`, a handler's parameter, which
 *   resolves the registration's overloads against the tool's zod schema: most of a second for the first
 *   such call of each tool, for a method of `String`.
 * - Whether a class may have subclasses. The language service answers by finding every reference to the
 *   class's name in the program, after each edit of any file.
 *
 * Per file, one walk of the compiler's tree, kept as long as the file's text is (a new text is a new
 * compiler node). Project files are the program's sources, not declarations or packages.
 */
import { ts, type ClassDeclaration, type Node } from 'ts-morph';

interface FileNames {
  /** Every name written, but a property access's own name that is read, not assigned. */
  written: Set<string>;
  /** The last name of each `extends` clause of a class (`Base` in `extends lib.Base`). */
  extended: Set<string>;
  /** `X` → `Y` for each `X as Y` of an import or export specifier. */
  renamed: Map<string, string[]>;
  /** A JavaScript file that extends a class and calls `require(...)`: its names may be bound in ways not read here. */
  requiresAndExtends: boolean;
  /** The names its classes give their members (an identifier or a string). */
  classMembers: Set<string>;
}

const namesCache = new WeakMap<ts.SourceFile, FileNames>();

/**
 * True unless no project file gives anything the name `name`. A project function is reached through a
 * property only where some file names it so: a declaration (method, property, object literal key,
 * shorthand, accessor, exported binding, export alias, a default export's `default`), a string key (`'trim': fn`,
 * `defineProperty(o, 'trim', ...)`), or an assignment to a property (`obj.trim = fn`, `exports.trim = ...`).
 * If `trim` is only ever read as `x.trim`, nothing of the project is called `trim`.
 */
export function projectMayDeclareMember(at: Node, name: string): boolean {
  return writtenInProject(at).has(name);
}

/** Per program, every name its project files write, as one set: asked for every call through a property, of each of 1,000 files' sets it took half a second. */
const writtenByProgram = new WeakMap<ts.Program, ReadonlySet<string>>();

function writtenInProject(at: Node): ReadonlySet<string> {
  const program = at.getProject().getProgram().compilerObject;
  let written = writtenByProgram.get(program);
  if (!written) {
    written = new Set(projectFiles(at).flatMap(f => [...f.written]));
    writtenByProgram.set(program, written);
  }
  return written;
}

/**
 * True unless no project file can extend `cls`: no `extends` clause ends in its name or in a name it is
 * imported or exported as. A default export (or `export =`), or a JavaScript file binding names by
 * `require`, is not read here: the answer is then true.
 */
export function projectMayExtend(cls: ClassDeclaration): boolean {
  const name = cls.getName();
  if (!name || cls.isDefaultExport() || cls.getSourceFile().getExportAssignments().length > 0) return true;
  const files = projectFiles(cls);
  const aliases = new Set([name]);
  for (let grew = true; grew;) {
    grew = false;
    for (const f of files) {
      for (const [from, tos] of f.renamed) {
        if (!aliases.has(from)) continue;
        for (const to of tos.filter(t => !aliases.has(t))) {
          aliases.add(to);
          grew = true;
        }
      }
    }
  }
  return files.some(f => f.requiresAndExtends || [...aliases].some(a => f.extended.has(a)));
}

/** The names a file's classes give their members, read with its other names (once per text). */
export function classMembersOf(file: ts.SourceFile): ReadonlySet<string> {
  return namesOf(file).classMembers;
}

/** Per program (a new text makes a new one), its project files' names: asked for every call through a property. */
const filesByProgram = new WeakMap<ts.Program, FileNames[]>();

function projectFiles(at: Node): FileNames[] {
  const program = at.getProject().getProgram().compilerObject;
  let files = filesByProgram.get(program);
  if (!files) {
    files = program
      .getSourceFiles()
      .filter(sf => !sf.isDeclarationFile && !program.isSourceFileFromExternalLibrary(sf) && !sf.fileName.includes('/node_modules/'))
      .map(namesOf);
    filesByProgram.set(program, files);
  }
  return files;
}

function namesOf(sf: ts.SourceFile): FileNames {
  const cached = namesCache.get(sf);
  if (cached) return cached;
  const names: FileNames = {
    written: new Set(),
    extended: new Set(),
    renamed: new Map(),
    requiresAndExtends: false,
    classMembers: new Set(),
  };
  let requires = false;
  const visit = (node: ts.Node): void => {
    if (ts.isIdentifier(node) || ts.isPrivateIdentifier(node) || ts.isStringLiteral(node) || ts.isNoSubstitutionTemplateLiteral(node)) {
      if (!readOnlyAsProperty(node)) names.written.add(node.text);
      return;
    }
    if (ts.isClassLike(node)) {
      for (const m of node.members)
        if (m.name && (ts.isIdentifier(m.name) || ts.isStringLiteral(m.name))) names.classMembers.add(m.name.text);
    }
    if (ts.isHeritageClause(node) && node.token === ts.SyntaxKind.ExtendsKeyword) {
      for (const type of node.types) {
        const e = type.expression;
        if (ts.isIdentifier(e)) names.extended.add(e.text);
        else if (ts.isPropertyAccessExpression(e)) names.extended.add(e.name.text);
      }
    }
    if ((ts.isImportSpecifier(node) || ts.isExportSpecifier(node)) && node.propertyName) {
      const from = node.propertyName.text;
      names.renamed.set(from, [...(names.renamed.get(from) ?? []), node.name.text]);
    }
    // A default export is a module's `default` member (`ns.default(...)`, `require('./ask').default(...)`).
    if (
      ts.isExportAssignment(node) ||
      (ts.canHaveModifiers(node) && ts.getModifiers(node)?.some(m => m.kind === ts.SyntaxKind.DefaultKeyword))
    )
      names.written.add('default');
    if (ts.isCallExpression(node) && ts.isIdentifier(node.expression) && node.expression.text === 'require') requires = true;
    ts.forEachChild(node, visit);
  };
  visit(sf);
  const javascript = /\.[cm]?jsx?$/.test(sf.fileName);
  names.requiresAndExtends = javascript && requires && names.extended.size > 0;
  namesCache.set(sf, names);
  return names;
}

/** `x.name` read, not assigned (`x.name = ...`, `x.name ??= ...`): that names no declaration. */
function readOnlyAsProperty(node: ts.Node): boolean {
  const access = node.parent;
  if (!access || !ts.isPropertyAccessExpression(access) || access.name !== node) return false;
  let target: ts.Node = access;
  while (target.parent && ts.isParenthesizedExpression(target.parent)) target = target.parent;
  const assignment = target.parent;
  const assigned =
    assignment && ts.isBinaryExpression(assignment) && assignment.left === target && isAssignmentOperator(assignment.operatorToken.kind);
  return !assigned;
}

function isAssignmentOperator(kind: ts.SyntaxKind): boolean {
  return kind >= ts.SyntaxKind.FirstAssignment && kind <= ts.SyntaxKind.LastAssignment;
}
