/** The specification's facts: one module that server, suites, load scripts and reports read. */
export * from './clauses.js';
export * from './versions.js';
export * from './base-token.js';
export * from './versioned-operations.js';
export * from './limits.js';
export * from './endpoints/index.js';
export * from './out-of-scope.js';
export * from './responses/index.js';
export * from './client-methods.js';
export * from './limits-file.js';
export * from './removed.js';
export * from './columns.js';
export * from './dates.js';
export * from './descriptor.js';
export * from './evidence.js';
export * from './error-bodies.js';
