import { useCallback, useEffect, useRef, useState } from 'preact/hooks';
import { describeError, isKeyRefused } from './api.js';

export interface Loaded<T> {
  data: T | null;
  error: string | null;
  loading: boolean;
  reload: () => void;
}

/**
 * Loads `load()` when `key` changes, and again every `everyMs` while `again(data)` says so (live progress). A refused
 * key signs the user out (`onKeyRefused`); other failures are shown and retried on the next tick.
 */
export function useLoad<T>(
  load: () => Promise<T>,
  key: string,
  opts: { everyMs?: number; again?: (data: T) => boolean; onKeyRefused?: () => void } = {},
): Loaded<T> {
  const [data, setData] = useState<T | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [loading, setLoading] = useState(true);
  const [tick, setTick] = useState(0);
  const latest = useRef(load);
  latest.current = load;
  const options = useRef(opts);
  options.current = opts;

  // A new key is a new thing to show: nothing of the previous one stays on screen.
  useEffect(() => {
    setData(null);
    setError(null);
  }, [key]);

  useEffect(() => {
    let live = true;
    let timer: ReturnType<typeof setTimeout> | undefined;
    setLoading(true);
    latest
      .current()
      .then((d) => {
        if (!live) return;
        setData(d);
        setError(null);
        const { everyMs, again } = options.current;
        if (everyMs && (!again || again(d))) timer = setTimeout(() => setTick((t) => t + 1), everyMs);
      })
      .catch((e: unknown) => {
        if (!live) return;
        if (isKeyRefused(e)) options.current.onKeyRefused?.();
        setError(describeError(e));
        if (options.current.everyMs) timer = setTimeout(() => setTick((t) => t + 1), options.current.everyMs);
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
  return { data, error, loading, reload };
}
