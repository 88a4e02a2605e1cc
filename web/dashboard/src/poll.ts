import { useCallback, useEffect, useRef, useState } from 'preact/hooks';
import { describeError, isKeyRefused } from './api.js';

export interface Loaded<T> {
  /** What was loaded for the current key (never what an earlier key loaded), or null until it comes. */
  data: T | null;
  error: string | null;
  loading: boolean;
  reload: () => void;
}

export interface LoadOptions<T> {
  /** Load again after this many ms (or as the last answer says: null stops), for live progress. */
  everyMs?: number | ((data: T) => number | null);
  onKeyRefused?: () => void;
}

/**
 * Loads `load()` when `key` changes, and again while `everyMs` says so. A refused key signs the user out
 * (`onKeyRefused`); other failures are shown, and retried on the next tick when the load repeats.
 */
export function useLoad<T>(load: () => Promise<T>, key: string, opts: LoadOptions<T> = {}): Loaded<T> {
  const [state, setState] = useState<{ key: string; data: T | null; error: string | null }>({
    key,
    data: null,
    error: null,
  });
  const [loading, setLoading] = useState(true);
  const [tick, setTick] = useState(0);
  const latest = useRef({ load, opts });
  latest.current = { load, opts };

  useEffect(() => {
    let live = true;
    let timer: ReturnType<typeof setTimeout> | undefined;
    const again = (ms: number | null | undefined) => {
      if (live && ms) timer = setTimeout(() => setTick((t) => t + 1), ms);
    };
    setLoading(true);
    latest.current
      .load()
      .then((data) => {
        if (!live) return;
        setState({ key, data, error: null });
        const every = latest.current.opts.everyMs;
        again(typeof every === 'function' ? every(data) : every);
      })
      .catch((e: unknown) => {
        if (!live) return;
        if (isKeyRefused(e)) latest.current.opts.onKeyRefused?.();
        setState((s) => ({ key, data: s.key === key ? s.data : null, error: describeError(e) }));
        const every = latest.current.opts.everyMs;
        again(typeof every === 'number' ? every : every ? 5000 : null);
      })
      .finally(() => {
        if (live) setLoading(false);
      });
    return () => {
      live = false;
      clearTimeout(timer);
    };
  }, [key, tick]);

  const reload = useCallback(() => setTick((t) => t + 1), []);
  const current = state.key === key;
  return { data: current ? state.data : null, error: current ? state.error : null, loading, reload };
}
