/**
 * Which functions of a k6 bundle must become async and which calls must be awaited, or why
 * the bundle cannot be made awaitable. A function blocks when it makes a blocking call
 * (http.*, sleep, group) or calls a function that blocks; a callback parameter blocks when a
 * blocking function is passed to it. The analysis declines wherever awaiting would change
 * what the script does: a blocking function used as a value (passed to forEach, stored in an
 * object, called with .call), a blocking call where `await` cannot go, a name declared twice.
 */
import { parse, type AnyNode, type CallExpression, type NewExpression } from 'acorn';
import { BLOCKING, scan, type Facts, type Fn, type FunctionNode } from './scan.js';

export type Analysis =
  { ok: true; code: string; asyncFns: FunctionNode[]; sites: CallExpression[] } | { ok: false; reason: string };

export function analyse(code: string): Analysis {
  let program;
  try {
    program = parse(code, { ecmaVersion: 'latest', sourceType: 'module', locations: true });
  } catch (e) {
    return { ok: false, reason: `the bundle does not parse: ${(e as Error).message}` };
  }
  const f = scan(program);
  const r = rules(f);
  markBlocking(f, r);
  markReachable(f);
  const reason = decline(f, r);
  if (reason) return { ok: false, reason };
  const sites: CallExpression[] = [];
  for (const fn of f.fns) for (const c of fn.calls) if (r.blockingCall(c, fn)) sites.push(c as CallExpression);
  return { ok: true, code, asyncFns: f.fns.filter((fn) => fn.blocking).map((fn) => fn.node), sites };
}

type Rules = ReturnType<typeof rules>;

/** Questions about callees and arguments, over what is known to block so far. */
function rules(f: Facts) {
  const blockingFns = new Set<string>();
  const blockingParam = (name: string, owner: Fn | null): boolean => {
    for (let o = owner; o; o = o.owner) if (o.blockingParams.has(name)) return true;
    return false;
  };
  const isBlockingCallee = (c: AnyNode, owner: Fn | null): boolean => {
    if (c.type === 'Identifier')
      return f.blockingNames.has(c.name) || blockingFns.has(c.name) || blockingParam(c.name, owner);
    return (
      c.type === 'MemberExpression' &&
      !c.computed &&
      c.object.type === 'Identifier' &&
      c.property.type === 'Identifier' &&
      (f.namespaces.get(c.object.name)?.has(c.property.name) ?? false)
    );
  };
  const isGroupCallee = (c: AnyNode): boolean =>
    (c.type === 'Identifier' && f.groupNames.has(c.name)) ||
    (c.type === 'MemberExpression' &&
      !c.computed &&
      c.object.type === 'Identifier' &&
      c.property.type === 'Identifier' &&
      c.property.name === 'group' &&
      f.namespaces.get(c.object.name) === BLOCKING.k6);
  const blockingCall = (c: CallExpression | NewExpression, owner: Fn | null) =>
    c.type === 'CallExpression' && isBlockingCallee(c.callee, owner);
  /** Functions by name, where the name is declared once. */
  const byName = new Map<string, Fn>();
  for (const fn of f.fns) for (const n of fn.names) if ((f.declCount.get(n) ?? 0) === 1) byName.set(n, fn);
  const blockingArg = (a: AnyNode, owner: Fn | null) =>
    (f.fnOf.get(a)?.blocking ?? false) ||
    (a.type === 'Identifier' && (blockingFns.has(a.name) || blockingParam(a.name, owner)));
  /** The parameter of the called function that an argument lands in, when it is a plain name. */
  const paramFor = (call: AnyNode | null, arg: AnyNode): { fn: Fn; name: string } | undefined => {
    if (!call || call.type !== 'CallExpression' || call.callee.type !== 'Identifier') return undefined;
    const fn = byName.get(call.callee.name);
    const i = call.arguments.indexOf(arg as never);
    const p = fn && i >= 0 ? fn.node.params[i] : undefined;
    return p?.type === 'Identifier' ? { fn: fn!, name: p.name } : undefined;
  };
  /** An argument that a blocking parameter of the called function takes. */
  const callbackArg = (call: AnyNode | null, arg: AnyNode): boolean => {
    const p = paramFor(call, arg);
    return !!p && p.fn.blockingParams.has(p.name);
  };
  return { blockingFns, blockingParam, blockingCall, isGroupCallee, blockingArg, paramFor, callbackArg };
}

/** Fixpoint: blocking functions, and callback parameters that receive one (`f` in `retry(f) { f() }`). */
function markBlocking(f: Facts, r: Rules): void {
  const markCallbackParams = (c: CallExpression | NewExpression, owner: Fn): boolean => {
    let changed = false;
    for (const a of c.arguments) {
      const p = r.paramFor(c, a);
      if (!p || p.fn.blockingParams.has(p.name) || !r.blockingArg(a, owner)) continue;
      // The parameter must name the callback throughout the function: declared nowhere else inside it.
      if (p.fn.locals.filter((d) => d === p.name).length !== 1) continue;
      p.fn.blockingParams.add(p.name);
      changed = true;
    }
    return changed;
  };
  for (let changed = true; changed;) {
    changed = false;
    for (const fn of f.fns) {
      for (const c of fn.calls) if (markCallbackParams(c, fn)) changed = true;
      if (fn.blocking || !fn.calls.some((c) => r.blockingCall(c, fn))) continue;
      fn.blocking = true;
      changed = true;
      for (const n of fn.names) r.blockingFns.add(n);
    }
  }
}

/** Fixpoint: what the script's exported functions (setup and teardown included) can run. */
function markReachable(f: Facts): void {
  const readBy = new Map<Fn, Set<string>>();
  for (const ref of f.refs) {
    for (let o = ref.owner; o; o = o.owner) {
      let set = readBy.get(o);
      if (!set) readBy.set(o, (set = new Set()));
      set.add(ref.node.name);
    }
  }
  const entries = new Set(f.exported.keys());
  // Names the init context reads (an export is not a read: exports are the entries above).
  const readAtTop = new Set(
    f.refs.filter((ref) => !ref.owner && ref.parent?.type !== 'ExportDefaultDeclaration').map((ref) => ref.node.name),
  );
  for (let changed = true; changed;) {
    changed = false;
    const read = new Set(readAtTop);
    for (const fn of f.fns) if (fn.reachable) for (const n of readBy.get(fn) ?? []) read.add(n);
    for (const fn of f.fns) {
      if (fn.reachable) continue;
      // An unnamed function outside any function (an object's method, a stored callback) may be called from anywhere.
      const loose = !fn.owner && fn.names.length === 0;
      if (loose || fn.owner?.reachable || fn.names.some((n) => entries.has(n) || read.has(n))) {
        fn.reachable = true;
        changed = true;
      }
    }
  }
}

/** Why awaiting would change what the script does, or undefined when it would not. */
function decline(f: Facts, r: Rules): string | undefined {
  const line = (n: AnyNode) => `line ${n.loc!.start.line}`;
  for (const name of [...f.namespaces.keys(), ...f.blockingNames, ...r.blockingFns])
    if ((f.declCount.get(name) ?? 0) > 1) return `the name "${name}" is declared more than once`;
  const top = f.topCalls.find((c) => r.blockingCall(c, null));
  if (top) return `a blocking call in the init context (${line(top)})`;
  for (const fn of f.fns) {
    if (!fn.reachable) continue;
    const p = fn.paramCalls.find((c) => r.blockingCall(c, fn));
    if (p) return `a blocking call in a parameter default (${line(p)})`;
    if (!fn.blocking) continue;
    if (fn.node.async || fn.node.generator)
      return `an async or generator function makes blocking calls (${line(fn.node)})`;
    if (fn.names.length > 0) continue;
    const parent = fn.parent;
    const groupCallback =
      parent?.type === 'CallExpression' && r.isGroupCallee(parent.callee) && parent.arguments[1] === fn.node;
    if (!groupCallback && !r.callbackArg(parent, fn.node))
      return `a function that makes blocking calls is used as a value (${line(fn.node)})`;
  }
  for (const { node: n, parent, owner } of f.refs) {
    if (owner && !owner.reachable) continue;
    const ns = f.namespaces.get(n.name);
    if (ns) {
      if (parent?.type !== 'MemberExpression' || parent.object !== n || parent.computed)
        return `the module binding "${n.name}" is used other than as ${n.name}.method (${line(n)})`;
      const method = parent.property.type === 'Identifier' ? parent.property.name : '';
      if (ns.has(method) && !f.calledDirectly.has(parent)) return `${n.name}.${method} is used as a value (${line(n)})`;
      continue;
    }
    if (!f.blockingNames.has(n.name) && !r.blockingFns.has(n.name) && !r.blockingParam(n.name, owner)) continue;
    const called = parent?.type === 'CallExpression' && parent.callee === n && !parent.optional;
    const exported = parent?.type === 'ExportDefaultDeclaration';
    if (!called && !exported && !r.callbackArg(parent, n))
      return `"${n.name}", which makes blocking calls, is used as a value (${line(n)})`;
  }
  return undefined;
}
