/** Benchmark script: constant VUs, one GET per iteration (the generator's own speed, next to autocannon). */
import http from 'k6/http';

export const options = {
  discardResponseBodies: true,
  scenarios: {
    get: {
      executor: 'constant-vus',
      vus: Number(__ENV.VUS || 10),
      duration: (__ENV.DURATION || '5') + 's',
      gracefulStop: '2s',
    },
  },
};

export default function (): void {
  http.get(__ENV.URL || 'http://127.0.0.1:8000/');
}
