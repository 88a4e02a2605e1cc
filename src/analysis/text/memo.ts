/**
 * A function of a text, remembered by the text: a bounded cache, cleared when full, shared by the process. For work
 * the analysis repeats on the same short strings (a word's lemma, a claim's or a sentence's words and numbers).
 */
export function memoByText<T>(fn: (text: string) => T, limit: number): (text: string) => T {
  const cache = new Map<string, T>();
  return (text) => {
    const hit = cache.get(text);
    if (hit !== undefined) return hit;
    const v = fn(text);
    if (cache.size >= limit) cache.clear();
    cache.set(text, v);
    return v;
  };
}
