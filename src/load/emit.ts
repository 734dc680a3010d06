/**
 * `conformance load --emit DIR`: the bundles stock k6 runs, plus a k6-operator TestRun
 * example for distributed runs (k6-operator gives each of `parallelism` runners its
 * execution segment). Exact-count thresholds are totals over all instances, so the example
 * runs pods with --no-thresholds and writes samples for `conformance load merge` to judge.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { bundleAll } from './bundle.js';
import { SCENARIOS } from './scenarios.js';

/** Instances per scenario in the example: the window-reset scenario is a single VU by design. */
const PARALLELISM: Record<string, number> = {
  'rate-per-base': 2,
  'rate-per-ip': 1,
  'rate-window': 1,
  'row-limits': 2,
  capacity: 4,
};

function testRunYaml(): string {
  const docs = SCENARIOS.map((s) => {
    const p = PARALLELISM[s.name] ?? 1;
    return `# ${s.name}: ${s.describe} (${s.clauses.join(', ')})
apiVersion: k6.io/v1alpha1
kind: TestRun
metadata:
  name: conformance-${s.name}
spec:
  parallelism: ${p}
  script:
    configMap:
      name: conformance-load
      file: ${s.name}.js
  # Each pod judges only its segment; judge the whole run after merging (see load/README.md).
  arguments: --no-thresholds --out json=/results/${s.name}-$(HOSTNAME).json
  runner:
    env:
      - name: TARGET
        valueFrom:
          secretKeyRef: { name: conformance-target, key: target.json }${
            s.exhausts
              ? `
      # Pods start at different moments: give them one window start to burst in (Unix seconds, a multiple of the window).
      - { name: START_AT, value: "0" }`
              : ''
          }
    volumeMounts:
      - { name: results, mountPath: /results }
    volumes:
      - name: results
        persistentVolumeClaim: { claimName: conformance-load-results }
`;
  });
  return `# k6-operator TestRun examples for the conformance load scenarios.
#   kubectl create configmap conformance-load --from-file=./   (the emitted *.js bundles)
#   kubectl create secret generic conformance-target --from-file=target.json
#   kubectl apply -f k6-operator-testrun.yaml
# Each pod runs its execution segment (k6-operator passes --execution-segment and
# --execution-segment-sequence) and judges nothing; judge the whole run once:
#   conformance load merge --scenario NAME --target-file target-public.json [--env K=V …] /results/NAME-*.json
# target-public.json is target.json without its secrets (url, edition, bases' names and uuids): the
# scenario's options depend on the target's shape, never on its credentials.
${docs.join('---\n')}`;
}

export async function emit(dir: string): Promise<string[]> {
  mkdirSync(dir, { recursive: true });
  const files: string[] = [];
  for (const b of await bundleAll()) {
    const f = join(dir, `${b.name}.js`);
    writeFileSync(f, b.code);
    files.push(f);
  }
  const y = join(dir, 'k6-operator-testrun.yaml');
  writeFileSync(y, testRunYaml());
  files.push(y);
  return files;
}
