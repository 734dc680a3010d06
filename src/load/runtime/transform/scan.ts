/**
 * The facts the analysis judges, gathered in one walk of the bundle (acorn-walk): the
 * bindings of the k6 modules, every function with its names and the calls made directly in
 * it, every read of a name, and every declaration. acorn-walk visits only the identifiers
 * that read or write a binding (not property names, labels or the names a declaration
 * introduces), which is the distinction the rules need.
 */
import type { AnyNode, CallExpression, Identifier, NewExpression, Program } from 'acorn';
import { ancestor, type AncestorVisitors } from 'acorn-walk';

/** The calls that wait: the functions of k6 modules that block a VU in stock k6. */
export const BLOCKING: Record<string, ReadonlySet<string>> = {
  'k6/http': new Set(['request', 'get', 'head', 'options', 'post', 'put', 'patch', 'del', 'batch']),
  k6: new Set(['sleep', 'group']),
};

export type FunctionNode = Extract<
  AnyNode,
  { type: 'FunctionDeclaration' | 'FunctionExpression' | 'ArrowFunctionExpression' }
>;

export interface Fn {
  node: FunctionNode;
  parent: AnyNode | null;
  owner: Fn | null;
  /** Its own name, the variable it initialises, or `*default*` when it is the default export. */
  names: string[];
  /** Calls made directly in its body, and in its parameters' defaults. */
  calls: (CallExpression | NewExpression)[];
  paramCalls: (CallExpression | NewExpression)[];
  /** Names declared inside it, its parameters included. */
  locals: string[];
  blocking: boolean;
  reachable: boolean;
  blockingParams: Set<string>;
}

export interface Ref {
  node: Identifier;
  parent: AnyNode | null;
  owner: Fn | null;
}

export interface Facts {
  /** `http` in `import http from 'k6/http'`: the module's blocking functions. */
  namespaces: Map<string, ReadonlySet<string>>;
  /** `sleep` in `import { sleep } from 'k6'` (and their local names). */
  blockingNames: Set<string>;
  groupNames: Set<string>;
  fns: Fn[];
  fnOf: Map<AnyNode, Fn>;
  refs: Ref[];
  topCalls: (CallExpression | NewExpression)[];
  /** Callee nodes of plain (not optional) calls. */
  calledDirectly: Set<AnyNode>;
  /** Local name → exported name. */
  exported: Map<string, string>;
  declCount: Map<string, number>;
}

const isFunction = (n: AnyNode): n is FunctionNode =>
  n.type === 'FunctionDeclaration' || n.type === 'FunctionExpression' || n.type === 'ArrowFunctionExpression';

/** Node types a declared name passes through on its way up to what declares it. */
const PATTERN = new Set(['ObjectPattern', 'ArrayPattern', 'RestElement', 'AssignmentPattern']);

export function scan(program: Program): Facts {
  const f: Facts = {
    namespaces: new Map(),
    blockingNames: new Set(),
    groupNames: new Set(),
    fns: [],
    fnOf: new Map(),
    refs: [],
    topCalls: [],
    calledDirectly: new Set(),
    exported: new Map(),
    declCount: new Map(),
  };
  topLevel(program, f);

  /** The function at ancestors[k], made on first sight (the walk reaches a function's contents before it). */
  const fnAt = (anc: AnyNode[], k: number): Fn => {
    const node = anc[k] as FunctionNode;
    let fn = f.fnOf.get(node);
    if (fn) return fn;
    const parent = k > 0 ? anc[k - 1]! : null;
    const names: string[] = [];
    if (node.id) names.push(node.id.name);
    if (parent?.type === 'VariableDeclarator' && parent.init === node && parent.id.type === 'Identifier')
      names.push(parent.id.name);
    if (parent?.type === 'ExportDefaultDeclaration') {
      names.push('*default*');
      f.exported.set('*default*', 'default');
    }
    if (node.type === 'FunctionDeclaration' && node.id && parent?.type === 'ExportNamedDeclaration')
      f.exported.set(node.id.name, node.id.name);
    const o = innermost(anc, k - 1);
    fn = {
      node,
      parent,
      owner: o < 0 ? null : fnAt(anc, o),
      names,
      calls: [],
      paramCalls: [],
      locals: [],
      blocking: false,
      reachable: false,
      blockingParams: new Set(),
    };
    f.fns.push(fn);
    f.fnOf.set(node, fn);
    return fn;
  };
  const ownerOf = (anc: AnyNode[], from: number): Fn | null => {
    const k = innermost(anc, from);
    return k < 0 ? null : fnAt(anc, k);
  };
  /** A declaration counts in the program and in every function it sits in. */
  const declare = (name: string, owner: Fn | null) => {
    f.declCount.set(name, (f.declCount.get(name) ?? 0) + 1);
    for (let o = owner; o; o = o.owner) o.locals.push(name);
  };

  const call = (n: CallExpression | NewExpression, _: unknown, anc: AnyNode[]) => {
    if (n.type === 'CallExpression' && !n.optional) f.calledDirectly.add(n.callee);
    const k = innermost(anc, anc.length - 2);
    if (k < 0) f.topCalls.push(n);
    else {
      const fn = fnAt(anc, k);
      (fn.node.params.includes(anc[k + 1] as never) ? fn.paramCalls : fn.calls).push(n);
    }
  };
  const visitors = {
    Function: (_n: FunctionNode, _: unknown, anc: AnyNode[]) => void fnAt(anc, anc.length - 1),
    CallExpression: call,
    NewExpression: call,
    Identifier: (n: Identifier, _: unknown, anc: AnyNode[]) => {
      f.refs.push({ node: n, parent: anc[anc.length - 2] ?? null, owner: ownerOf(anc, anc.length - 2) });
    },
    ImportSpecifier: (n: { local: Identifier }) => declare(n.local.name, null),
    ImportDefaultSpecifier: (n: { local: Identifier }) => declare(n.local.name, null),
    ImportNamespaceSpecifier: (n: { local: Identifier }) => declare(n.local.name, null),
    // A name in a pattern: declared (variable, parameter, catch, class, function declaration) or assigned.
    VariablePattern: (n: Identifier, _: unknown, anc: AnyNode[]) => {
      let k = anc.length - 2;
      while (k > 0 && PATTERN.has(anc[k]!.type)) k--;
      const by = anc[k]!;
      if (isFunction(by)) {
        if (by.id !== n) declare(n.name, fnAt(anc, k));
        else if (by.type === 'FunctionDeclaration') declare(n.name, ownerOf(anc, k - 1));
      } else if (by.type === 'VariableDeclarator' || by.type === 'CatchClause' || by.type === 'ClassDeclaration')
        declare(n.name, ownerOf(anc, k));
      else if (by.type !== 'ClassExpression')
        // An assignment reads nothing but rebinds the name: judged as a use of it like any other.
        f.refs.push({ node: n, parent: by, owner: ownerOf(anc, k) });
    },
  };
  ancestor(program, visitors as unknown as AncestorVisitors<unknown>);
  return f;
}

/** The index of the innermost function among ancestors[0..from], or -1. */
function innermost(anc: AnyNode[], from: number): number {
  for (let k = from; k >= 0; k--) if (isFunction(anc[k]!)) return k;
  return -1;
}

/** Imports of the k6 modules, and what the module exports. */
function topLevel(program: Program, f: Facts): void {
  for (const d of program.body) {
    if (d.type === 'ImportDeclaration' && typeof d.source.value === 'string' && d.source.value in BLOCKING) {
      const set = BLOCKING[d.source.value]!;
      for (const s of d.specifiers) {
        if (s.type === 'ImportSpecifier') {
          const name = s.imported.type === 'Identifier' ? s.imported.name : String(s.imported.value);
          if (!set.has(name)) continue;
          f.blockingNames.add(s.local.name);
          if (name === 'group') f.groupNames.add(s.local.name);
        } else f.namespaces.set(s.local.name, set);
      }
    }
    if (d.type === 'ExportDefaultDeclaration' && d.declaration.type === 'Identifier')
      f.exported.set(d.declaration.name, 'default');
    if (d.type !== 'ExportNamedDeclaration') continue;
    for (const s of d.specifiers)
      if (s.local.type === 'Identifier')
        f.exported.set(s.local.name, s.exported.type === 'Identifier' ? s.exported.name : String(s.exported.value));
    if (d.declaration?.type === 'VariableDeclaration')
      for (const v of d.declaration.declarations) for (const x of patternNames(v.id)) f.exported.set(x, x);
  }
}

function patternNames(p: AnyNode | null, out: string[] = []): string[] {
  if (!p) return out;
  if (p.type === 'Identifier') out.push(p.name);
  else if (p.type === 'ObjectPattern')
    for (const q of p.properties) patternNames(q.type === 'RestElement' ? q.argument : q.value, out);
  else if (p.type === 'ArrayPattern') for (const q of p.elements) patternNames(q, out);
  else if (p.type === 'AssignmentPattern') patternNames(p.left, out);
  else if (p.type === 'RestElement') patternNames(p.argument, out);
  return out;
}
