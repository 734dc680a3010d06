/** `k6/execution`: vu, scenario, instance and test, as live getters like k6's. */
import { Aborted, setVuTags, state, thread } from './vu-state.js';

const I = { completed: 0, interrupted: 1, active: 2, initialized: 3 } as const;

export const vu = {
  get idInInstance() {
    return state.vu;
  },
  get idInTest() {
    return state.vuInTest;
  },
  get iterationInInstance() {
    return state.iterInInstance;
  },
  get iterationInScenario() {
    return state.iterInScenario;
  },
  get tags() {
    return state.vuTags;
  },
  set tags(v: Record<string, string>) {
    setVuTags(v);
  },
  metrics: {
    get tags() {
      return state.vuTags;
    },
    get metadata() {
      return {};
    },
  },
};

export const scenario = {
  get name() {
    return need().name;
  },
  get executor() {
    return need().executor;
  },
  get startTime() {
    need();
    return state.scenarioStartedAt;
  },
  get progress() {
    need();
    return state.progress();
  },
  get iterationInInstance() {
    need();
    return state.iterScenarioInInstance;
  },
  get iterationInTest() {
    need();
    return state.iterInTest;
  },
};

export const instance = {
  get iterationsCompleted() {
    return Atomics.load(thread.instance, I.completed);
  },
  get iterationsInterrupted() {
    return Atomics.load(thread.instance, I.interrupted);
  },
  get vusActive() {
    return Atomics.load(thread.instance, I.active);
  },
  get vusInitialized() {
    return Atomics.load(thread.instance, I.initialized);
  },
  get currentTestRunDuration() {
    return Date.now() - thread.testStart;
  },
};

export const test = {
  abort(reason?: string): never {
    throw new Aborted(reason ?? 'test aborted by the script');
  },
  get options() {
    return JSON.parse(thread.optionsJSON) as unknown;
  },
};

function need() {
  if (!state.scenario) throw new Error('scenario information is only available in VU code');
  return state.scenario;
}
