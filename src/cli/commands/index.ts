/** Every command module, listed once (yargs command modules: command, describe, builder, handler). */
import type { CommandModule } from 'yargs';
import * as clean from './clean.js';
import * as explain from './explain.js';
import * as replay from './replay.js';
import * as run from './run.js';
import * as selftest from './selftest.js';
import * as serve from './serve.js';
import * as load from './load.js';

// Each module types its own arguments; yargs sees them as one list.
export const COMMANDS = [run, replay, explain, serve, clean, selftest, load] as unknown as CommandModule[];
