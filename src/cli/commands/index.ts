/** Every command module, listed once (yargs command modules: command, describe, builder, handler). */
import type { CommandModule } from 'yargs';
import * as clean from './clean.js';
import * as run from './run.js';
import * as serve from './serve.js';

// Each module types its own arguments; yargs sees them as one list.
export const COMMANDS = [run, serve, clean] as unknown as CommandModule[];
