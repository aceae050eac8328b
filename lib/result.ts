// The one answer shape of the app's writes and reads that can fail: the data, or why not. Server
// actions answer it (lib/server-action.ts), and so do the data functions they call.

export type Success<T = null> = { ok: true; data: T };
export type Failure<E = string> = { ok: false; error: E };
export type Result<T = null, E = string> = Success<T> | Failure<E>;

export function ok(): Success<null>;
export function ok<T>(data: T): Success<T>;
export function ok<T>(data: T | null = null): Success<T | null> {
  return { ok: true, data };
}

export function fail<E = string>(error: E): Failure<E> {
  return { ok: false, error };
}
