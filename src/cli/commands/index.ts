/** Every command module, listed once (yargs command modules: command, describe, builder, handler). */
import type { CommandModule } from 'yargs';
import * as serve from './serve.js';

// Each module types its own arguments; yargs sees them as one list.
export const COMMANDS = [serve] as unknown as CommandModule[];
