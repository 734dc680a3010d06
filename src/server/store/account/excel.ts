/**
 * exceljs on first use: with its dependencies it is the heaviest load of the server (a quarter
 * of a CPU-second at every start of `serve`, `run` and the suites' servers), and only the
 * .xlsx import and export need it.
 */
export const excel = async (): Promise<typeof import('exceljs')> => (await import('exceljs')).default;
