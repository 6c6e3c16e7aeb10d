/**
 * Methods of the project's classes, inlined into a handler like functions (src/analysis/inline.ts):
 * a call `this.ask(...)` or `this.helper.ask(...)` from a handler whose `this` is the instance (an
 * arrow registered inside a method, or a class field), with the method's `this` bound to the receiver.
 * The receiver is written again wherever the method used `this`, so it must name the same object in
 * every round: `this`, or a chain of fields set once, in the constructor or their initializer. A
 * method whose code would not mean the same there is not inlined, and the reason says what to change:
 * one that writes a field of the instance and reads it back (a later round reads the instance, which
 * another call may have changed since), one using `super`, one reading a `#private` field of a class
 * the handler's code cannot reach, one the instance's class may override.
 */
import { Node, SyntaxKind, type ClassDeclaration, type MethodDeclaration, type PropertyAccessExpression } from 'ts-morph';
import { codeStyle, quoted } from '../rewrite/style.js';
import { unwrap } from './mcpSymbols.js';
import { projectMayExtend } from './projectNames.js';
import { thisOwner, type FunctionLike } from './functions.js';
import { descendantsOfKind } from './descendants.js';

/** What `this` of an inlined method becomes in the handler: the receiver's text (`this` itself, or `this.helper`). */
export interface Receiver {
  text: string;
  /** The receiver is the handler's own `this`: the method's class members are reached as written. */
  self: boolean;
}

export interface NotInlinable {
  refused: string;
  fix: string;
  cause: string;
}

/**
 * The receiver of a method call made in a handler, when it names one instance in every round
 * (`this` of a handler written inside the class, or fields of it set once); why not otherwise.
 */
export function receiverOf(callee: PropertyAccessExpression, handler: FunctionLike): Receiver | NotInlinable {
  let e = unwrap(callee.getExpression());
  const fields: string[] = [];
  while (Node.isPropertyAccessExpression(e)) {
    const field = e.getNameNode().getSymbol()?.getDeclarations()[0];
    if (!field || !isField(field)) return notThrough(callee, `${e.getText()} is not a field of a class of the project`);
    if (reassigned(field)) {
      return {
        refused: `it is called through ${e.getText()}, which is assigned outside the constructor (a later round could find another object there)`,
        fix: 'make the field readonly (set it once, in the constructor), or migrate by hand',
        cause: 'a method called through a field assigned outside the constructor',
      };
    }
    fields.unshift(e.getName());
    e = unwrap(e.getExpression());
  }
  if (e.getKind() !== SyntaxKind.ThisKeyword)
    return notThrough(callee, `${callee.getExpression().getText()} is neither this nor a field of it`);
  const owner = thisOwner(e);
  if (Node.isFunctionDeclaration(owner) || Node.isFunctionExpression(owner) || Node.isSourceFile(owner))
    return notThrough(callee, "the handler's this is not an instance of a class");
  // A method is a handler only as the delegate its handler calls through this (src/analysis/delegates.ts): its this is the instance.
  if (handler.getKind() !== SyntaxKind.ArrowFunction && !Node.isMethodDeclaration(handler))
    return notThrough(callee, 'the handler is not an arrow function, so its this is not the instance');
  return { text: ['this', ...fields].join('.'), self: fields.length === 0 };
}

function notThrough(callee: PropertyAccessExpression, why: string): NotInlinable {
  return {
    refused: `it is called as ${callee.getText()}(...), and ${why}`,
    fix: 'call it through this, or a field of this set in the constructor, from an arrow handler registered in the class, or migrate by hand',
    cause: 'a method called through something other than this or a field of it',
  };
}

/** A property of a class: declared in its body, or a constructor parameter property. */
function isField(decl: Node): boolean {
  return Node.isPropertyDeclaration(decl) || (Node.isParameterDeclaration(decl) && decl.isParameterProperty());
}

/** Whether a field is assigned anywhere but its constructor (a readonly one never is). */
function reassigned(field: Node): boolean {
  if ((Node.isPropertyDeclaration(field) || Node.isParameterDeclaration(field)) && field.isReadonly()) return false;
  const name = (field as import('ts-morph').PropertyDeclaration).getNameNode();
  if (!Node.isIdentifier(name) && !Node.isPrivateIdentifier(name)) return true;
  const cls = field.getFirstAncestor(a => Node.isClassDeclaration(a) || Node.isClassExpression(a));
  return name.findReferencesAsNodes().some(ref => {
    if (!isAssignmentTarget(ref.getParent() ?? ref)) return false;
    const owner = thisOwner(ref);
    return !(Node.isConstructorDeclaration(owner) && owner.getParent() === cls);
  });
}

/** Whether `target` (`this.x`) is assigned to: `=`, a compound assignment, `++`/`--`. */
function isAssignmentTarget(target: Node): boolean {
  const parent = target.getParent();
  if (!parent) return false;
  if (Node.isBinaryExpression(parent) && parent.getLeft() === target) {
    const op = parent.getOperatorToken().getKind();
    return op >= SyntaxKind.FirstAssignment && op <= SyntaxKind.LastAssignment;
  }
  return (
    (Node.isPrefixUnaryExpression(parent) || Node.isPostfixUnaryExpression(parent)) &&
    [SyntaxKind.PlusPlusToken, SyntaxKind.MinusMinusToken].includes(parent.getOperatorToken())
  );
}

/** The `this` of the method itself in its body (not those of functions declared in it). */
function ownThis(method: FunctionLike): Node[] {
  return descendantsOfKind(method.getBody()!, SyntaxKind.ThisKeyword).filter(t => thisOwner(t) === method);
}

/** Why a method's body would not mean the same in the handler, with `this` bound to the receiver. */
export function methodIneligibility(method: MethodDeclaration, receiver: Receiver, handler: FunctionLike): NotInlinable | undefined {
  const body = method.getBody();
  if (body?.getDescendantsOfKind(SyntaxKind.SuperKeyword).some(s => thisOwner(s) === method)) {
    return {
      refused: "it uses super, which means its own class's parent only inside that class",
      fix: 'migrate by hand',
      cause: 'a method that uses super',
    };
  }
  const written = new Set<string>();
  const read = new Set<string>();
  for (const t of ownThis(method)) {
    const access = t.getParent();
    if (!access || !Node.isPropertyAccessExpression(access) || access.getExpression() !== t) continue;
    const member = access.getName();
    if (Node.isPrivateIdentifier(access.getNameNode()) && !(receiver.self && sameClass(method, handler))) {
      return {
        refused: `it reads this.${member}, a #private field that only code of its own class can reach`,
        fix: 'make it a private field (private, not #) or read it in a method the handler does not need inlined, or migrate by hand',
        cause: 'a method that reads a #private field of another class',
      };
    }
    (isAssignmentTarget(access) ? written : read).add(member);
  }
  const kept = [...written].find(m => read.has(m));
  if (kept) {
    return {
      refused: `it writes this.${kept} and reads it back (a later round would read the instance's field, which another call may have changed in between, or another server instance holds)`,
      fix: `keep the value in a local of the method, or migrate by hand`,
      cause: 'a method that writes an instance field and reads it back',
    };
  }
  return undefined;
}

function sameClass(method: MethodDeclaration, handler: FunctionLike): boolean {
  const cls = method.getParent();
  return handler.getFirstAncestor(a => a === cls) !== undefined;
}

/**
 * The edits that bind the method's `this` to the receiver: `this` becomes the receiver's text, and a
 * private or protected member of another object is read as `receiver['member']` (which TypeScript
 * allows from outside the class, as it does not for `receiver.member`).
 */
export function thisEdits(
  method: MethodDeclaration,
  receiver: Receiver,
  handler: FunctionLike,
): { start: number; end: number; text: string }[] {
  const inClass = sameClass(method, handler);
  if (receiver.self && inClass) return [];
  const style = codeStyle(handler.getSourceFile().getFullText());
  const edits: { start: number; end: number; text: string }[] = [];
  for (const t of ownThis(method)) {
    const access = t.getParent();
    const member = access && Node.isPropertyAccessExpression(access) && access.getExpression() === t ? access : undefined;
    // A subclass's handler reaches the protected members of its own this, and no private one of its base class.
    const hiddenHere =
      member && (hidden(member, SyntaxKind.PrivateKeyword) || (!receiver.self && hidden(member, SyntaxKind.ProtectedKeyword)));
    if (member && hiddenHere)
      edits.push({ start: member.getStart(), end: member.getEnd(), text: `${receiver.text}[${quoted(member.getName(), style)}]` });
    else if (!receiver.self) edits.push({ start: t.getStart(), end: t.getEnd(), text: receiver.text });
  }
  return edits;
}

function hidden(access: PropertyAccessExpression, modifier: SyntaxKind.PrivateKeyword | SyntaxKind.ProtectedKeyword): boolean {
  const decl = access.getNameNode().getSymbol()?.getDeclarations()[0];
  if (
    !decl ||
    !(
      Node.isPropertyDeclaration(decl) ||
      Node.isParameterDeclaration(decl) ||
      Node.isMethodDeclaration(decl) ||
      Node.isGetAccessorDeclaration(decl)
    )
  )
    return false;
  return decl.hasModifier(modifier);
}

/** A method nothing outside its class can call: once every call to it is inlined, it can go. */
function isPrivateMethod(decl: Node): boolean {
  return Node.isMethodDeclaration(decl) && (decl.hasModifier(SyntaxKind.PrivateKeyword) || Node.isPrivateIdentifier(decl.getNameNode()));
}

/**
 * A method only its file can call, and no other class's method of the same name stands in for: private,
 * or of a class the module does not export, overriding nothing and overridden by nothing. Once every
 * call to it is inlined, it can go.
 */
export function callableOnlyHere(method: MethodDeclaration): boolean {
  if (isPrivateMethod(method)) return true;
  const cls = method.getParent();
  if (!Node.isClassDeclaration(cls) || cls.isExported() || cls.isDefaultExport()) return false;
  const name = cls.getName();
  const file = cls.getSourceFile();
  if (
    !name ||
    file.getExportDeclarations().some(d => d.getNamedExports().some(n => n.getName() === name)) ||
    file.getExportAssignments().some(a => a.getExpression().getText() === name)
  )
    return false;
  for (let base = cls.getBaseClass(); base; base = base.getBaseClass()) if (base.getInstanceMember(method.getName())) return false;
  return overridesOf(method).length === 0;
}

/**
 * The bodies a call of `method` through `this` may run: the method's own (if it has one) and those of
 * the classes of the project that override it. More than one, or none of its own: no single body can
 * be inlined.
 */
export function overridesOf(method: MethodDeclaration, receiverClass?: ClassDeclaration): MethodDeclaration[] {
  // A private method is never overridden.
  if (!Node.isClassDeclaration(method.getParent()) || isPrivateMethod(method)) return [];
  // Through a receiver of a subclass, only that subclass's line of classes can stand in.
  const cls =
    receiverClass && receiverClass !== method.getParent() && extendsClass(receiverClass, method.getParent() as ClassDeclaration)
      ? receiverClass
      : (method.getParent() as ClassDeclaration);
  const found: MethodDeclaration[] = [];
  const walk = (c: ClassDeclaration, depth: number) => {
    if (depth > 4) return;
    for (const derived of derivedClasses(c)) {
      const own = derived.getInstanceMethod(method.getName());
      if (own?.getBody() && !own.getSourceFile().isDeclarationFile()) found.push(own);
      walk(derived, depth + 1);
    }
  };
  walk(cls, 0);
  return found;
}

/**
 * A class's direct subclasses in the project, asked of the language service once per program: every call
 * of a method of a shared API client asks it about the same class (a new text makes a new program, and a
 * new answer).
 */
const derivedByProgram = new WeakMap<object, Map<ClassDeclaration, ClassDeclaration[]>>();

function derivedClasses(c: ClassDeclaration): ClassDeclaration[] {
  const program = c.getProject().getLanguageService().compilerObject.getProgram();
  if (!program) return c.getDerivedClasses();
  let known = derivedByProgram.get(program);
  if (!known) derivedByProgram.set(program, (known = new Map()));
  let derived = known.get(c);
  if (!derived) known.set(c, (derived = projectMayExtend(c) ? c.getDerivedClasses() : []));
  return derived;
}

function extendsClass(c: ClassDeclaration, base: ClassDeclaration): boolean {
  for (let b = c.getBaseClass(), depth = 0; b && depth < 8; b = b.getBaseClass(), depth++) if (b === base) return true;
  return false;
}

/** The class of the project a receiver's type is (`this` in a class's method: that class). */
export function receiverClass(receiver: Node): ClassDeclaration | undefined {
  try {
    const decl = receiver.getType().getSymbol()?.getDeclarations()[0];
    return decl && Node.isClassDeclaration(decl) ? decl : undefined;
  } catch {
    return undefined;
  }
}
