/** Target descriptors and limits files as users hand them over: read once, validated by the spec's zod schemas. */
import { dirname, resolve } from 'node:path';
import { z } from 'zod';
import { LimitsFile, TargetDescriptor } from '../spec/index.js';
import { parseWith, readJsonFile } from './json-file.js';

export function parseDescriptor(raw: unknown, where: string): TargetDescriptor {
  return parseWith(TargetDescriptor, raw, where);
}

/**
 * A descriptor file; `override` fields (e.g. a `--target` URL) replace the file's before
 * validation. Its `ca_file` is taken relative to the descriptor's folder.
 */
export function readDescriptorFile(file: string, override: Record<string, unknown> = {}): TargetDescriptor {
  const raw = readJsonFile(file, z.record(z.string(), z.unknown()), 'target descriptor');
  if (typeof raw.ca_file === 'string' && raw.ca_file) raw.ca_file = resolve(dirname(file), raw.ca_file);
  return parseDescriptor({ ...raw, ...override }, `target descriptor ${file}`);
}

export function readLimitsFile(file: string): LimitsFile {
  return readJsonFile(file, LimitsFile, 'limits file');
}
