/**
 * The type check and the lint of `npm test` on one TypeScript program: typescript-eslint's
 * type-aware rules need the whole program typed, which is most of what `tsc --noEmit` does, so
 * both in one process build it once (about a third less CPU than `npm run typecheck` and
 * `npm run lint` one after the other, which stay as they are). Prints tsc's diagnostics and
 * ESLint's findings as those commands do; exit 1 when either found anything (2 when the
 * configuration could not be read), 0 when both are clean.
 */
import { ESLint } from 'eslint';
import ts from 'typescript';

const host: ts.FormatDiagnosticsHost = {
  getCanonicalFileName: (f) => f,
  getCurrentDirectory: () => process.cwd(),
  getNewLine: () => '\n',
};
const color = process.env.FORCE_COLOR ? process.env.FORCE_COLOR !== '0' : process.stdout.isTTY;
const print = (diagnostics: readonly ts.Diagnostic[]) =>
  process.stdout.write(
    color ? ts.formatDiagnosticsWithColorAndContext(diagnostics, host) : ts.formatDiagnostics(diagnostics, host),
  );

const configFile = ts.findConfigFile(process.cwd(), ts.sys.fileExists, 'tsconfig.json');
if (!configFile) {
  process.stderr.write('typecheck-lint: no tsconfig.json here\n');
  process.exit(2);
}
const configProblems: ts.Diagnostic[] = [];
const parsed = ts.getParsedCommandLineOfConfigFile(
  configFile,
  {},
  { ...ts.sys, onUnRecoverableConfigFileDiagnostic: (d) => configProblems.push(d) },
);
if (!parsed || configProblems.length) {
  print(configProblems);
  process.exit(2);
}
const program = ts.createProgram({
  rootNames: parsed.fileNames,
  options: parsed.options,
  ...(parsed.projectReferences ? { projectReferences: parsed.projectReferences } : {}),
});
const typeErrors = ts.getPreEmitDiagnostics(program);
print(typeErrors);

// The project's ESLint configuration, its type information from the program above instead of the project service.
const eslint = new ESLint({
  overrideConfig: { languageOptions: { parserOptions: { projectService: false, programs: [program] } } },
});
const results = await eslint.lintFiles(['.']);
const formatted = await (await eslint.loadFormatter('stylish')).format(results);
if (formatted) process.stdout.write(formatted);
const findings = results.reduce((n, r) => n + r.errorCount + r.warningCount, 0);

process.stdout.write(
  `type check: ${typeErrors.length ? `${typeErrors.length} error(s)` : 'clean'}; lint: ${findings ? `${findings} finding(s)` : 'clean'}\n`,
);
process.exit(typeErrors.length || findings ? 1 : 0);
