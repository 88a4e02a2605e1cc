/**
 * Reads until `ok` holds of what was read, every `everyMs`; throws with the last reading after `timeoutMs`. For
 * outcomes a test cannot step to (a child process, a completer's tick): it waits, it asserts no timing.
 */
export async function until<T>(
  what: string,
  read: () => Promise<T>,
  ok: (x: T) => boolean,
  timeoutMs = 20_000,
  everyMs = 50,
): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const x = await read();
    if (ok(x)) return x;
    if (Date.now() > deadline) throw new Error(`${what}: not reached after ${timeoutMs} ms: ${JSON.stringify(x)}`);
    await new Promise((r) => setTimeout(r, everyMs));
  }
}
