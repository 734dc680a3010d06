/**
 * One typed HTTP error for the whole server. Each component of the real service words its
 * error bodies its own way (api-shapes §8), so an error names its style, not its body.
 */
export type ErrorStyle = 'gateway' | 'web' | 'auth' | 'login';

export class HttpError extends Error {
  constructor(
    readonly status: number,
    message: string,
    readonly style: ErrorStyle = 'web',
    readonly extra: Record<string, unknown> = {},
  ) {
    super(message);
    this.name = 'HttpError';
  }

  body(): Record<string, unknown> {
    switch (this.style) {
      case 'gateway':
        return { error_message: this.message, ...this.extra };
      case 'auth':
        return { detail: this.message, ...this.extra };
      case 'login':
        return { non_field_errors: [this.message], ...this.extra };
      default:
        return { error_msg: this.message, ...this.extra };
    }
  }
}

export const badRequest = (msg: string, style: ErrorStyle = 'gateway', extra?: Record<string, unknown>) =>
  new HttpError(400, msg, style, extra);
export const notFound = (msg: string, style: ErrorStyle = 'gateway') => new HttpError(404, msg, style);
export const forbidden = (msg = 'Permission denied.', style: ErrorStyle = 'web') => new HttpError(403, msg, style);
