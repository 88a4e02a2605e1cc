/** Whatever a `catch` or a rejection received, as an `Error`: an `Error` as is, anything else as its text. */
export function coerceError(e: unknown): Error {
  return e instanceof Error ? e : new Error(String(e));
}
