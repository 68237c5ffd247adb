import { authHeaders, type Session } from './session.js';
import type { ErrorBody } from './wire.js';

/** An answer other than 2xx, with the message the API gave (the envelope's, or the spec's 401 and 403 shapes). */
export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly key: string | undefined,
    message: string,
    /** The answer's Retry-After (seconds), when it gave one. */
    readonly retryAfter?: number,
  ) {
    super(message);
  }
}

async function failure(response: Response): Promise<ApiError> {
  const body = (await response.json().catch(() => ({}))) as ErrorBody;
  const first = body.errors?.[0];
  const message = first?.message ?? first?.Message ?? body.Message ?? body.message ?? response.statusText;
  const retryAfter = Number(response.headers.get('retry-after') ?? Number.NaN);
  return new ApiError(
    response.status,
    first?.key,
    message,
    Number.isFinite(retryAfter) ? retryAfter : undefined,
  );
}

export async function call<T>(
  session: Session,
  method: string,
  path: string,
  body?: unknown,
  signal?: AbortSignal,
): Promise<T> {
  const headers: Record<string, string> = { ...authHeaders(session), accept: 'application/json' };
  if (body !== undefined) headers['content-type'] = 'application/json';
  const response = await fetch(path, {
    method,
    headers,
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    ...(signal === undefined ? {} : { signal }),
  });
  if (!response.ok) throw await failure(response);
  return (response.status === 204 ? undefined : await response.json()) as T;
}

/** A CSV answer saved as a file: fetched with the session's Authorization, which a plain link could not send. */
export async function download(session: Session, path: string, filename: string): Promise<void> {
  const response = await fetch(path, { headers: authHeaders(session) });
  if (!response.ok) throw await failure(response);
  const url = URL.createObjectURL(await response.blob());
  const link = document.createElement('a');
  link.href = url;
  link.download = filename;
  document.body.append(link);
  link.click();
  link.remove();
  setTimeout(() => URL.revokeObjectURL(url), 10_000);
}

export const query = (params: Record<string, string | number | undefined>) => {
  const defined = Object.entries(params).filter(([, value]) => value !== undefined && value !== '');
  return defined.length === 0
    ? ''
    : `?${new URLSearchParams(defined.map(([k, v]) => [k, String(v)])).toString()}`;
};

export const messageOf = (error: unknown) => (error instanceof Error ? error.message : String(error));
