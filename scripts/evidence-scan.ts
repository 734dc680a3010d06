/**
 * Every check of the suites and the assertions it makes, found with the TypeScript compiler:
 * a check is a `test(...clause(ID, title, evidence?), body)` call; its assertions are the
 * `expect…(actual, message)` calls and the calls of the helpers of src/harness/assert.ts
 * (`expectStatus`, `expectShape`, `expectClientError`) in its body and in every function of
 * the suites and src/harness it calls, followed through the call graph. An assertion's
 * evidence is its own (`expect.because(ev.X('…'))`, a helper's `by` argument) or the check's
 * default (`clause()`'s third argument); one with neither is `missing` — the evidence test
 * (src/spec/clauses-table.test.ts) fails on it. Read by scripts/clauses-table.ts.
 */
import { dirname, join, relative } from 'node:path';
import ts from 'typescript';

const ROOT = join(import.meta.dirname, '..');
const HELPERS = new Set(['expectStatus', 'expectShape', 'expectClientError']);
/** The helpers' parameter that names an assertion's own evidence (0-based). */
const HELPER_BY: Record<string, number> = { expectStatus: 3, expectShape: 3, expectClientError: 2 };
/** Machinery the scan does not walk into (the assertion primitives themselves). */
const OPAQUE = [/src[\\/]harness[\\/](assert|verdict|test)\.ts$/];

/** Evidence as the source names it: a class and citation, computed at run time, or none. */
export type FoundEvidence =
  { kind: 'literal'; class: string; cite: string } | { kind: 'computed'; text: string } | { kind: 'missing' };

export interface AssertionSite {
  /** `file:line` from the repository root. */
  at: string;
  /** The assertion's message (or the helper's `what`), as written. */
  says: string;
  /** Its own evidence; `default` when it takes the check's. */
  own: FoundEvidence | 'default';
}

export interface CheckInfo {
  at: string;
  /** The clause ID (none when computed: see `clauseExpr`). */
  clauses: string[];
  /** A computed clause ID as written (`removed.clause`). */
  clauseExpr?: string;
  title: string;
  evidence: FoundEvidence;
  assertions: (AssertionSite & { evidence: FoundEvidence })[];
}

const at = (node: ts.Node) => {
  const sf = node.getSourceFile();
  return `${relative(ROOT, sf.fileName)}:${sf.getLineAndCharacterOfPosition(node.getStart(sf)).line + 1}`;
};

const oneLine = (s: string, n = 140) => {
  const t = s.replace(/\s+/g, ' ').trim();
  return t.length > n ? `${t.slice(0, n)}…` : t;
};

/** The text a string-ish argument says: a literal's value, a template's raw text. */
function textOf(node: ts.Node | undefined): string {
  if (!node) return '';
  if (ts.isStringLiteralLike(node)) return node.text;
  if (ts.isTemplateExpression(node)) return node.getText().slice(1, -1);
  return node.getText();
}

/** What a file declares at its top level (functions, consts, classes' methods by name) and imports. */
interface FileScope {
  sf: ts.SourceFile;
  decls: Map<string, ts.Node>;
  imports: Map<string, { file: string; name: string }>;
}

/**
 * Syntactic, not typed: calls are followed by name (a function or const declared in the file
 * or imported from a relative module); a type checker over the whole project costs ~15 s.
 */
export class EvidenceScan {
  private readonly scopes = new Map<string, FileScope>();
  private readonly memo = new Map<ts.Node, AssertionSite[]>();

  constructor(readonly files: readonly string[]) {}

  private scope(file: string): FileScope | undefined {
    const hit = this.scopes.get(file);
    if (hit) return hit;
    if (!ts.sys.fileExists(file)) return undefined;
    const sf = ts.createSourceFile(file, ts.sys.readFile(file)!, ts.ScriptTarget.ES2022, true);
    const decls = new Map<string, ts.Node>();
    const imports = new Map<string, { file: string; name: string }>();
    for (const st of sf.statements) {
      if (ts.isFunctionDeclaration(st) && st.name) decls.set(st.name.text, st);
      else if (ts.isVariableStatement(st))
        for (const d of st.declarationList.declarations) {
          if (ts.isIdentifier(d.name)) decls.set(d.name.text, d);
        }
      else if (ts.isClassDeclaration(st))
        for (const m of st.members) {
          if (ts.isMethodDeclaration(m) && m.name && ts.isIdentifier(m.name)) decls.set(`.${m.name.text}`, m);
        }
      else if (
        ts.isImportDeclaration(st) &&
        ts.isStringLiteral(st.moduleSpecifier) &&
        st.moduleSpecifier.text.startsWith('.')
      ) {
        const target = join(dirname(file), st.moduleSpecifier.text).replace(/\.js$/, '.ts');
        const named = st.importClause?.namedBindings;
        if (named && ts.isNamedImports(named))
          for (const el of named.elements)
            imports.set(el.name.text, { file: target, name: (el.propertyName ?? el.name).text });
      }
    }
    const scope = { sf, decls, imports };
    this.scopes.set(file, scope);
    return scope;
  }

  /** The declaration `name` stands for in `file` (followed through imports and re-exports). */
  private resolve(file: string, name: string, depth = 0): ts.Node | undefined {
    const sc = this.scope(file);
    if (!sc || depth > 5) return undefined;
    const local = sc.decls.get(name);
    if (local) return local;
    const imp = sc.imports.get(name);
    if (imp) return this.resolve(imp.file, imp.name, depth + 1);
    for (const st of sc.sf.statements) {
      if (
        ts.isExportDeclaration(st) &&
        st.moduleSpecifier &&
        ts.isStringLiteral(st.moduleSpecifier) &&
        st.moduleSpecifier.text.startsWith('.')
      ) {
        const target = join(dirname(file), st.moduleSpecifier.text).replace(/\.js$/, '.ts');
        const el =
          st.exportClause && ts.isNamedExports(st.exportClause)
            ? st.exportClause.elements.find((e) => e.name.text === name)
            : undefined;
        if (el) return this.resolve(target, (el.propertyName ?? el.name).text, depth + 1);
        if (!st.exportClause) {
          const r = this.resolve(target, name, depth + 1);
          if (r) return r;
        }
      }
    }
    return undefined;
  }

  checks(): CheckInfo[] {
    const out: CheckInfo[] = [];
    for (const f of this.files) {
      const sc = this.scope(f);
      if (!sc) throw new Error(`no such file: ${f}`);
      const visit = (n: ts.Node) => {
        const c = ts.isCallExpression(n) ? this.asCheck(n) : undefined;
        if (c) out.push(c);
        ts.forEachChild(n, visit);
      };
      visit(sc.sf);
    }
    return out;
  }

  /** `test(...clause(…), body)`: the check, its default evidence and its assertions. */
  private asCheck(call: ts.CallExpression): CheckInfo | undefined {
    const first = call.arguments[0];
    if (!first || !ts.isSpreadElement(first) || !ts.isCallExpression(first.expression)) return undefined;
    const cl = first.expression;
    if (!ts.isIdentifier(cl.expression) || cl.expression.text !== 'clause') return undefined;
    const body = call.arguments[call.arguments.length - 1];
    const evidence = cl.arguments[2] ? this.evidenceOf(cl.arguments[2]) : { kind: 'missing' as const };
    const sites = body ? this.sitesIn(body, new Set()) : [];
    const id = cl.arguments[0]!;
    return {
      at: at(call),
      clauses: ts.isStringLiteralLike(id) ? [id.text] : [],
      clauseExpr: ts.isStringLiteralLike(id) ? undefined : id.getText(),
      title: oneLine(textOf(cl.arguments[1]), 200),
      evidence,
      assertions: sites.map((s) => ({ ...s, evidence: s.own === 'default' ? evidence : s.own })),
    };
  }

  /** Evidence as written: `ev.X('…')`, `endpointEvidence(ep, '…')`, a const naming one, or computed. */
  evidenceOf(e: ts.Expression, depth = 0): FoundEvidence {
    if (ts.isParenthesizedExpression(e) || ts.isAsExpression(e)) return this.evidenceOf(e.expression, depth);
    if (ts.isCallExpression(e)) {
      const callee = e.expression;
      if (
        ts.isPropertyAccessExpression(callee) &&
        ts.isIdentifier(callee.expression) &&
        callee.expression.text === 'ev'
      ) {
        const cls = callee.name.text === 'owed' ? 'inferred (owed)' : callee.name.text;
        const cite = textOf(e.arguments[0]);
        return { kind: 'literal', class: cls, cite: cls === 'spec' && !cite.startsWith('§') ? `§${cite}` : cite };
      }
      if (ts.isIdentifier(callee) && callee.text === 'answerEvidence')
        return {
          kind: 'literal',
          class: 'documented',
          cite: 'per operation: OA62 <file>#<operationId>, its response schema and example',
        };
      if (ts.isIdentifier(callee) && callee.text === 'endpointEvidence')
        return {
          kind: 'literal',
          class: 'spec/documented',
          cite: `per endpoint row: §${textOf(e.arguments[1])} for a spec row, else its OA62 operation`,
        };
    }
    if (depth < 4) {
      const decl = ts.isIdentifier(e)
        ? this.resolve(e.getSourceFile().fileName, e.text)
        : ts.isPropertyAccessExpression(e) && ts.isIdentifier(e.expression)
          ? this.propertyOf(e.expression, e.name.text)
          : undefined;
      if (decl && ts.isVariableDeclaration(decl) && decl.initializer)
        return this.evidenceOf(decl.initializer, depth + 1);
      if (decl && ts.isPropertyAssignment(decl)) return this.evidenceOf(decl.initializer, depth + 1);
    }
    return { kind: 'computed', text: oneLine(e.getText(), 120) };
  }

  /** `obj.name` where `obj` is a const object literal: the property's assignment. */
  private propertyOf(obj: ts.Identifier, name: string): ts.Node | undefined {
    const d = this.resolve(obj.getSourceFile().fileName, obj.text);
    let init = d && ts.isVariableDeclaration(d) ? d.initializer : undefined;
    while (init && (ts.isAsExpression(init) || ts.isSatisfiesExpression(init) || ts.isParenthesizedExpression(init)))
      init = init.expression;
    if (!init || !ts.isObjectLiteralExpression(init)) return undefined;
    return init.properties.find(
      (p) =>
        ts.isPropertyAssignment(p) && (ts.isIdentifier(p.name) || ts.isStringLiteral(p.name)) && p.name.text === name,
    );
  }

  /** Assertion sites in `node` and in the project functions it calls. */
  private sitesIn(node: ts.Node, seen: Set<ts.Node>): AssertionSite[] {
    const out: AssertionSite[] = [];
    const visit = (n: ts.Node) => {
      if (ts.isCallExpression(n)) {
        const site = this.asSite(n);
        if (site) out.push(site);
        else for (const f of this.calledFunctions(n.expression)) out.push(...this.sitesOfFunction(f, seen));
        // A function passed by name (`items.map(checkOne)`) runs too.
        for (const a of n.arguments)
          if (ts.isIdentifier(a)) for (const f of this.calledFunctions(a)) out.push(...this.sitesOfFunction(f, seen));
      }
      ts.forEachChild(n, visit);
    };
    visit(node);
    return out;
  }

  private sitesOfFunction(f: ts.Node, seen: Set<ts.Node>): AssertionSite[] {
    const hit = this.memo.get(f);
    if (hit) return hit;
    if (seen.has(f)) return [];
    seen.add(f);
    const sites = this.sitesIn(f, seen);
    this.memo.set(f, sites);
    return sites;
  }

  /** The project functions (suites/, src/harness/) a call may run, but the assertion primitives. */
  private calledFunctions(c: ts.Expression): ts.Node[] {
    const file = c.getSourceFile().fileName;
    // A method of a class of the same file (`this.x()`), else a function by name.
    const decl = ts.isIdentifier(c)
      ? this.resolve(file, c.text)
      : ts.isPropertyAccessExpression(c) && c.expression.kind === ts.SyntaxKind.ThisKeyword
        ? this.scope(file)?.decls.get(`.${c.name.text}`)
        : undefined;
    if (!decl) return [];
    const where = decl.getSourceFile().fileName;
    if (
      !/[\\/](suites|src[\\/]harness)[\\/]/.test(where) ||
      OPAQUE.some((r) => r.test(where)) ||
      /\.test\.ts$/.test(where)
    )
      return [];
    const body =
      ts.isFunctionDeclaration(decl) || ts.isMethodDeclaration(decl)
        ? decl.body
        : ts.isVariableDeclaration(decl) &&
            decl.initializer &&
            (ts.isArrowFunction(decl.initializer) || ts.isFunctionExpression(decl.initializer))
          ? decl.initializer
          : undefined;
    return body ? [body] : [];
  }

  /** An assertion call: `expect[.soft|.because(e)|.about(x)]*(actual, message)` or a helper of assert.ts. */
  private asSite(call: ts.CallExpression): AssertionSite | undefined {
    const callee = call.expression;
    if (ts.isIdentifier(callee) && HELPERS.has(callee.text)) {
      const by = call.arguments[HELPER_BY[callee.text]!];
      return {
        at: at(call),
        says: oneLine(textOf(call.arguments[callee.text === 'expectClientError' ? 1 : 2])),
        own: by ? this.evidenceOf(by) : 'default',
      };
    }
    let own: FoundEvidence | 'default' = 'default';
    let e: ts.Expression = callee;
    for (;;) {
      if (ts.isPropertyAccessExpression(e) && e.name.text === 'soft') {
        e = e.expression;
        continue;
      }
      if (
        ts.isCallExpression(e) &&
        ts.isPropertyAccessExpression(e.expression) &&
        ['because', 'about'].includes(e.expression.name.text)
      ) {
        if (e.expression.name.text === 'because' && own === 'default' && e.arguments[0])
          own = this.evidenceOf(e.arguments[0]);
        e = e.expression.expression;
        continue;
      }
      break;
    }
    if (!ts.isIdentifier(e) || e.text !== 'expect') return undefined;
    // Playwright's own expect (test files) is not a check's assertion.
    const imp = this.scope(call.getSourceFile().fileName)?.imports.get('expect');
    if (!imp && /\.test\.ts$/.test(call.getSourceFile().fileName)) return undefined;
    return { at: at(call), says: oneLine(textOf(call.arguments[1]) || `${textOf(call.arguments[0])} …`), own };
  }
}

/** The suite files of the repository. */
export function suiteFiles(dir = join(ROOT, 'suites')): string[] {
  return ts.sys
    .readDirectory(dir, ['.ts'])
    .filter((f) => f.endsWith('.spec.ts'))
    .sort();
}
