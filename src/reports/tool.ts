/** The harness's own name and version, as every report records them. */
export const TOOL = { name: 'base-data-conformance', version: '0.1.0' } as const;
