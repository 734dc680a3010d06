/**
 * Lets several VUs share one thread. A k6 script blocks in http.*, sleep() and group(); a
 * thread that runs one VU can block, one that runs many cannot. This pass rewrites a k6
 * bundle (ES module syntax, as stock k6 runs it) so that those calls, and every call of a
 * script function that reaches one, are awaited: `http.get(u)` becomes
 * `__k6b(await __k6s(http.get(u)))`, and the functions that contain such calls become async.
 * `__k6s` turns a rejection into a value and `__k6b` makes the calling VU current again before
 * the value is used or the error rethrown, since other VUs ran in between.
 *
 * It is deliberately conservative: when a blocking function is used as a value (passed to
 * forEach, stored in an object, called with .call) or a blocking call sits where `await`
 * cannot go, it declines and names the reason; the runner then gives each VU a thread of
 * its own and runs the bundle unchanged.
 */
import { parse } from 'acorn';

/** An ESTree node as acorn makes it; the walk below reads fields by name. */
interface N {
  type: string;
  start: number;
  end: number;
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- ESTree fields differ per node type; the walk checks `type` before reading them
  [k: string]: any;
}

const BLOCKING: Record<string, ReadonlySet<string>> = {
  'k6/http': new Set(['request', 'get', 'head', 'options', 'post', 'put', 'patch', 'del', 'batch']),
  k6: new Set(['sleep', 'group']),
};

type Awaitable = { ok: true; code: string; sites: number } | { ok: false; reason: string };

/** Run by the runner's setup VU, never by an iteration. */
const LIFECYCLE = new Set(['setup', 'teardown', 'handleSummary', 'options']);

const FUNCTION = new Set(['FunctionDeclaration', 'FunctionExpression', 'ArrowFunctionExpression']);

/** Child nodes of `n` with the field they sit in. */
function* children(n: N): Generator<[N, string]> {
  for (const key of Object.keys(n)) {
    if (key === 'type' || key === 'start' || key === 'end' || key === 'loc' || key === 'range') continue;
    const v = n[key];
    if (Array.isArray(v)) {
      for (const c of v) if (c && typeof c.type === 'string') yield [c, key];
    } else if (v && typeof v === 'object' && typeof v.type === 'string') yield [v, key];
  }
}

/** Identifiers a pattern declares. */
function declared(p: N | null, out: string[]): string[] {
  if (!p) return out;
  switch (p.type) {
    case 'Identifier':
      out.push(p.name);
      break;
    case 'ObjectPattern':
      for (const q of p.properties) declared(q.type === 'RestElement' ? q.argument : q.value, out);
      break;
    case 'ArrayPattern':
      for (const q of p.elements) declared(q, out);
      break;
    case 'AssignmentPattern':
      declared(p.left, out);
      break;
    case 'RestElement':
      declared(p.argument, out);
      break;
  }
  return out;
}

/** Whether an Identifier in this position reads a binding (rather than naming a property, a label or a declaration). */
function isReference(parent: N | null, key: string): boolean {
  if (!parent) return true;
  switch (parent.type) {
    case 'MemberExpression':
      return key === 'object' || parent.computed;
    case 'Property':
    case 'PropertyDefinition':
    case 'MethodDefinition':
      return key === 'value' || parent.computed;
    case 'LabeledStatement':
    case 'BreakStatement':
    case 'ContinueStatement':
      return false;
    case 'ImportSpecifier':
    case 'ImportDefaultSpecifier':
    case 'ImportNamespaceSpecifier':
      return false;
    case 'ExportSpecifier':
      return key === 'local';
    case 'FunctionDeclaration':
    case 'FunctionExpression':
    case 'ArrowFunctionExpression':
      return key === 'body';
    case 'VariableDeclarator':
      return key === 'init';
    case 'CatchClause':
      return key === 'body';
    case 'ClassDeclaration':
    case 'ClassExpression':
      return key !== 'id';
    case 'MetaProperty':
      return false;
    default:
      return true;
  }
}

export function makeAwaitable(code: string): Awaitable {
  let program: N;
  try {
    program = parse(code, { ecmaVersion: 'latest', sourceType: 'module' }) as unknown as N;
  } catch (e) {
    return { ok: false, reason: `the bundle does not parse: ${(e as Error).message}` };
  }
  const line = (pos: number) => code.slice(0, pos).split('\n').length;

  // Bindings of the k6 modules: namespaces (`http` in http.get) and blocking functions (sleep).
  const namespaces = new Map<string, ReadonlySet<string>>();
  const blockingNames = new Set<string>();
  const groupNames = new Set<string>();
  for (const d of program.body as N[]) {
    if (d.type !== 'ImportDeclaration' || !(d.source.value in BLOCKING)) continue;
    const set = BLOCKING[d.source.value as string]!;
    for (const s of d.specifiers as N[]) {
      if (s.type === 'ImportSpecifier') {
        const name = s.imported.name ?? s.imported.value;
        if (set.has(name)) {
          blockingNames.add(s.local.name);
          if (name === 'group') groupNames.add(s.local.name);
        }
      } else namespaces.set(s.local.name, set);
    }
  }

  // Functions, their names, the calls made directly in their bodies, the names they read, every declaration.
  interface Fn {
    node: N;
    parent: N | null;
    owner: Fn | null;
    names: string[];
    calls: N[];
    paramCalls: N[];
    blocking: boolean;
    reachable: boolean;
    blockingParams: Set<string>;
  }
  interface Ref {
    node: N;
    parent: N | null;
    key: string;
    owner: Fn | null;
  }
  const fns: Fn[] = [];
  const fnOf = new Map<N, Fn>();
  /** Names declared inside each function (its parameters included), for the callback rule below. */
  const localDecls = new Map<Fn, string[]>();
  const topCalls: N[] = [];
  const refs: Ref[] = [];
  const calledDirectly = new Set<N>();
  const exported = new Map<string, string>(); // local name → exported name
  const declCount = new Map<string, number>();
  /** Declarations, counted in the program and in every function they sit in. */
  const count = (names: string[], owner: Fn | null) => {
    for (const n of names) declCount.set(n, (declCount.get(n) ?? 0) + 1);
    for (let o = owner; o; o = o.owner) {
      let l = localDecls.get(o);
      if (!l) localDecls.set(o, (l = []));
      l.push(...names);
    }
  };
  const scan = (n: N, parent: N | null, key: string, owner: Fn | null, inParams: boolean): void => {
    if (FUNCTION.has(n.type)) {
      const names: string[] = [];
      if (n.id) names.push(n.id.name);
      if (parent?.type === 'VariableDeclarator' && key === 'init' && parent.id.type === 'Identifier')
        names.push(parent.id.name);
      if (parent?.type === 'ExportDefaultDeclaration') {
        names.push('*default*');
        exported.set('*default*', 'default');
      }
      if (n.type === 'FunctionDeclaration' && n.id && parent?.type === 'ExportNamedDeclaration')
        exported.set(n.id.name, n.id.name);
      const fn: Fn = {
        node: n,
        parent,
        owner,
        names,
        calls: [],
        paramCalls: [],
        blocking: false,
        reachable: false,
        blockingParams: new Set(),
      };
      fns.push(fn);
      fnOf.set(n, fn);
      if (n.type === 'FunctionDeclaration' && n.id) count([n.id.name], owner);
      for (const p of n.params as N[]) {
        count(declared(p, []), fn);
        scan(p, n, 'params', fn, true);
      }
      scan(n.body, n, 'body', fn, false);
      return;
    }
    switch (n.type) {
      case 'VariableDeclarator':
        count(declared(n.id, []), owner);
        break;
      case 'CatchClause':
        if (n.param) count(declared(n.param, []), owner);
        break;
      case 'ClassDeclaration':
        if (n.id) count([n.id.name], owner);
        break;
      case 'ImportSpecifier':
      case 'ImportDefaultSpecifier':
      case 'ImportNamespaceSpecifier':
        count([n.local.name], owner);
        break;
      case 'ExportSpecifier':
        exported.set(n.local.name, n.exported.name ?? n.exported.value);
        break;
      case 'ExportNamedDeclaration':
        if (n.declaration?.type === 'VariableDeclaration')
          for (const d of n.declaration.declarations) for (const x of declared(d.id, [])) exported.set(x, x);
        break;
      case 'Identifier':
        if (isReference(parent, key)) refs.push({ node: n, parent, key, owner });
        break;
      case 'CallExpression':
      case 'NewExpression':
        if (n.type === 'CallExpression' && !n.optional) calledDirectly.add(n.callee);
        if (!owner) topCalls.push(n);
        else (inParams ? owner.paramCalls : owner.calls).push(n);
        break;
    }
    for (const [c, k] of children(n)) scan(c, n, k, owner, inParams);
  };
  scan(program, null, '', null, false);

  const blockingFns = new Set<string>();
  const blockingParam = (name: string, owner: Fn | null): boolean => {
    for (let o = owner; o; o = o.owner) if (o.blockingParams.has(name)) return true;
    return false;
  };
  const isBlockingCallee = (c: N, owner: Fn | null): boolean => {
    if (c.type === 'Identifier')
      return blockingNames.has(c.name) || blockingFns.has(c.name) || blockingParam(c.name, owner);
    return (
      c.type === 'MemberExpression' &&
      !c.computed &&
      c.object.type === 'Identifier' &&
      c.property.type === 'Identifier' &&
      (namespaces.get(c.object.name)?.has(c.property.name) ?? false)
    );
  };
  const isGroupCallee = (c: N): boolean =>
    (c.type === 'Identifier' && groupNames.has(c.name)) ||
    (c.type === 'MemberExpression' &&
      !c.computed &&
      c.object.type === 'Identifier' &&
      c.property.name === 'group' &&
      namespaces.get(c.object.name) === BLOCKING.k6);
  const blockingCall = (c: N, owner: Fn | null) => c.type === 'CallExpression' && isBlockingCallee(c.callee, owner);
  const byName = new Map<string, Fn>();
  for (const f of fns) for (const n of f.names) if ((declCount.get(n) ?? 0) === 1) byName.set(n, f);
  const blockingArg = (a: N, owner: Fn | null) =>
    (FUNCTION.has(a.type) && fnOf.get(a)!.blocking) ||
    (a.type === 'Identifier' && (blockingFns.has(a.name) || blockingParam(a.name, owner)));
  /** `f` in `function respecting(f) { … f() … }` when some call passes a blocking function there. */
  const markCallbackParams = (c: N, owner: Fn): boolean => {
    const callee =
      c.type === 'CallExpression' && c.callee.type === 'Identifier' ? byName.get(c.callee.name) : undefined;
    if (!callee) return false;
    let changed = false;
    (c.arguments as N[]).forEach((a, i) => {
      const p = callee.node.params[i] as N | undefined;
      if (!p || p.type !== 'Identifier' || callee.blockingParams.has(p.name) || !blockingArg(a, owner)) return;
      // The parameter must name the callback throughout the function: declared nowhere else inside it.
      if ((localDecls.get(callee) ?? []).filter((d) => d === p.name).length !== 1) return;
      callee.blockingParams.add(p.name);
      changed = true;
    });
    return changed;
  };

  // A function blocks when it makes a blocking call; a call of a blocking function blocks too.
  for (let changed = true; changed;) {
    changed = false;
    for (const f of fns) {
      for (const c of f.calls) if (markCallbackParams(c, f)) changed = true;
      if (f.blocking || !f.calls.some((c) => blockingCall(c, f))) continue;
      f.blocking = true;
      changed = true;
      for (const n of f.names) blockingFns.add(n);
    }
  }
  /** An argument that a blocking parameter of the called function takes. */
  const callbackArg = (call: N | null, arg: N): boolean => {
    if (!call || call.type !== 'CallExpression' || call.callee.type !== 'Identifier') return false;
    const f = byName.get(call.callee.name);
    const i = (call.arguments as N[]).indexOf(arg);
    const p = f && i >= 0 ? (f.node.params[i] as N | undefined) : undefined;
    return !!p && p.type === 'Identifier' && f!.blockingParams.has(p.name);
  };

  // What the VUs' iterations can run: the exported functions but setup, teardown and
  // handleSummary (those run on a VU of their own, unchanged), what they name, what they contain.
  const readBy = new Map<Fn, Set<string>>();
  for (const r of refs) {
    for (let o = r.owner; o; o = o.owner) {
      let set = readBy.get(o);
      if (!set) readBy.set(o, (set = new Set()));
      set.add(r.node.name);
    }
  }
  const entryNames = new Set([...exported].filter(([, e]) => !LIFECYCLE.has(e)).map(([l]) => l));
  // Names the init context reads (an export list is not a read: exports are the entries above).
  const readAtTop = new Set(
    refs
      .filter((r) => !r.owner && r.parent?.type !== 'ExportSpecifier' && r.parent?.type !== 'ExportDefaultDeclaration')
      .map((r) => r.node.name),
  );
  for (let changed = true; changed;) {
    changed = false;
    const read = new Set(readAtTop);
    for (const f of fns) if (f.reachable) for (const n of readBy.get(f) ?? []) read.add(n);
    for (const f of fns) {
      if (f.reachable) continue;
      // An unnamed function outside any function (an object's method, a stored callback) may be called from anywhere.
      const loose = !f.owner && f.names.length === 0;
      if (loose || (f.owner && f.owner.reachable) || f.names.some((n) => entryNames.has(n) || read.has(n))) {
        f.reachable = true;
        changed = true;
      }
    }
  }

  // Where the rewrite would change what the iterations do, decline.
  for (const name of [...namespaces.keys(), ...blockingNames, ...blockingFns]) {
    if ((declCount.get(name) ?? 0) > 1) return { ok: false, reason: `the name "${name}" is declared more than once` };
  }
  const top = topCalls.find((c) => blockingCall(c, null));
  if (top) return { ok: false, reason: `a blocking call in the init context (line ${line(top.start)})` };
  for (const f of fns) {
    if (!f.reachable) continue;
    const p = f.paramCalls.find((c) => blockingCall(c, f));
    if (p) return { ok: false, reason: `a blocking call in a parameter default (line ${line(p.start)})` };
    if (!f.blocking) continue;
    const at = `line ${line(f.node.start)}`;
    if (f.node.async || f.node.generator)
      return { ok: false, reason: `an async or generator function makes blocking calls (${at})` };
    if (f.names.length === 0) {
      const parent = f.parent;
      const groupCallback =
        parent?.type === 'CallExpression' && isGroupCallee(parent.callee) && parent.arguments[1] === f.node;
      if (!groupCallback && !callbackArg(parent, f.node))
        return { ok: false, reason: `a function that makes blocking calls is used as a value (${at})` };
    }
  }
  for (const { node: n, parent, key, owner } of refs) {
    if (owner && !owner.reachable) continue;
    const at = `line ${line(n.start)}`;
    const ns = namespaces.get(n.name);
    if (ns) {
      if (parent?.type !== 'MemberExpression' || key !== 'object' || parent.computed)
        return { ok: false, reason: `the module binding "${n.name}" is used other than as ${n.name}.method (${at})` };
      if (ns.has(parent.property.name) && !calledDirectly.has(parent))
        return { ok: false, reason: `${n.name}.${parent.property.name} is used as a value (${at})` };
      continue;
    }
    if (!blockingNames.has(n.name) && !blockingFns.has(n.name) && !blockingParam(n.name, owner)) continue;
    const called = parent?.type === 'CallExpression' && key === 'callee' && !parent.optional;
    const exports = parent?.type === 'ExportSpecifier' || parent?.type === 'ExportDefaultDeclaration';
    if (!called && !exports && !(key === 'arguments' && callbackArg(parent, n)))
      return { ok: false, reason: `"${n.name}", which makes blocking calls, is used as a value (${at})` };
  }

  // Rewrite: `async` before each blocking function, an awaited wrapper around each blocking call.
  const edits: { pos: number; text: string; order: number }[] = [];
  for (const f of fns) if (f.blocking) edits.push({ pos: f.node.start, text: 'async ', order: 0 });
  let sites = 0;
  for (const f of fns) {
    for (const c of f.calls) {
      if (!blockingCall(c, f)) continue;
      sites++;
      // At one position, the wider call opens first and closes last.
      edits.push({ pos: c.start, text: '__k6b(await __k6s(', order: -(c.end - c.start) });
      edits.push({ pos: c.end, text: '))', order: c.end - c.start });
    }
  }
  edits.sort((a, b) => a.pos - b.pos || a.order - b.order);
  let out = '';
  let at = 0;
  for (const e of edits) {
    out += code.slice(at, e.pos) + e.text;
    at = e.pos;
  }
  out += code.slice(at);
  return { ok: true, code: out, sites };
}
