/** `conformance serve`: start the reference server on loopback. */
import type { ArgumentsCamelCase, Argv } from 'yargs';
import { EDITIONS, EMULATED_VERSIONS, NEWEST_VERSION, DEFAULT_EDITION } from '../../spec/index.js';

interface Args {
  port: number;
  host: string;
  edition: (typeof EDITIONS)[number];
  apiVersion: string;
  data?: string;
  json: boolean;
  config?: string;
  rateWindow: number;
  trustProxy: boolean;
  publicUrl?: string;
  unlimited: boolean;
  fault: string[];
}

export function builder(y: Argv): Argv<Args> {
  return y
    .option('port', { type: 'number', default: 0, describe: 'Port (0 = any free port)' })
    .option('host', {
      type: 'string',
      default: '127.0.0.1',
      describe: 'Loopback address to listen on (127.0.0.0/8 or ::1)',
    })
    .option('edition', { choices: EDITIONS, default: DEFAULT_EDITION, describe: 'Edition whose limits apply' })
    .option('api-version', {
      type: 'string',
      choices: EMULATED_VERSIONS,
      default: NEWEST_VERSION,
      describe: 'Release to behave as (§9)',
    })
    .option('data', {
      type: 'string',
      describe: 'SQLite file to keep data in, each base in a file of its own in FILE.bases/ (default: in memory)',
    })
    .option('json', { type: 'boolean', default: false, describe: 'Print one line on stdout: the target descriptor' })
    .option('config', { type: 'string', describe: 'Limits configuration file (JSON, §8.4)' })
    .option('rate-window', {
      type: 'number',
      default: 60,
      describe: 'Rate-limit window in seconds (shorter for fast self-tests)',
    })
    .option('trust-proxy', {
      type: 'boolean',
      default: false,
      describe:
        'Behind a reverse proxy: the client IP from X-Forwarded-For; links from X-Forwarded-Proto, -Host and -Port',
    })
    .option('public-url', {
      type: 'string',
      describe:
        'Root URL clients reach the server at, e.g. https://api.example.com: every link in an answer is built from it (default: the forwarded headers with --trust-proxy, else Host)',
    })
    .option('unlimited', { type: 'boolean', default: false, describe: 'No rate limits or quota (capacity runs)' })
    .option('fault', {
      type: 'string',
      array: true,
      default: [],
      describe: 'Fault switch to turn on (mutants; see `conformance selftest --list`)',
    }) as unknown as Argv<Args>;
}

export async function handler(argv: ArgumentsCamelCase<Args>): Promise<void> {
  // Loaded here, not at the top: every other command (and --help) starts faster without the server.
  const { startServer } = await import('../../server/index.js');
  const srv = await startServer({
    host: argv.host,
    port: argv.port,
    edition: argv.edition,
    apiVersion: argv.apiVersion,
    dataFile: argv.data,
    configFile: argv.config,
    rateWindowSeconds: argv.rateWindow,
    trustProxy: argv.trustProxy,
    ...(argv.publicUrl ? { publicUrl: argv.publicUrl } : {}),
    unlimited: argv.unlimited,
    faults: argv.fault,
  });
  // Listen for the stop signal before announcing the server: a caller may send it as soon as it reads the line.
  const stopped = new Promise<void>((resolve) => {
    const stop = () => {
      void srv.close().then(resolve);
    };
    process.once('SIGINT', stop);
    process.once('SIGTERM', stop);
  });
  if (argv.json) process.stdout.write(`${JSON.stringify(srv.descriptor)}\n`);
  else
    process.stderr.write(
      `reference server ${srv.descriptor.api_version} (${srv.descriptor.edition}) listening on ${srv.url}\n`,
    );
  await stopped;
}
