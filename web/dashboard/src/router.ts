import { useEffect, useState } from 'preact/hooks';

/** Where the dashboard is: `#/monitors/ID?country=US` is segments ['monitors', 'ID'] and its query. */
export interface Route {
  segments: string[];
  query: URLSearchParams;
}

/** A segment as typed; one that is not valid percent-encoding stays as it is (it then finds nothing). */
function safeDecode(s: string): string {
  try {
    return decodeURIComponent(s);
  } catch {
    return s;
  }
}

function current(): Route {
  const raw = location.hash.replace(/^#\/?/, '');
  const q = raw.indexOf('?');
  const path = q === -1 ? raw : raw.slice(0, q);
  return {
    segments: path.split('/').filter(Boolean).map(safeDecode),
    query: new URLSearchParams(q === -1 ? '' : raw.slice(q + 1)),
  };
}

/** The route, re-rendered on every change of the hash (links, back and forward). */
export function useRoute(): Route {
  const [route, setRoute] = useState(current);
  useEffect(() => {
    const onChange = () => setRoute(current());
    addEventListener('hashchange', onChange);
    return () => removeEventListener('hashchange', onChange);
  }, []);
  return route;
}

/** The href of a dashboard place, with a query of the defined values. */
export function href(path: string, query: Record<string, string | undefined> = {}): string {
  const q = new URLSearchParams();
  for (const [k, v] of Object.entries(query)) if (v !== undefined && v !== '') q.set(k, v);
  const qs = q.toString();
  return `#/${path}${qs ? `?${qs}` : ''}`;
}

export function navigate(to: string): void {
  location.hash = to;
}
