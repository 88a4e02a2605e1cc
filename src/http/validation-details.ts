import type { FieldProblem } from '../domain/request-errors.js';

interface AjvLikeError {
  instancePath?: string;
  keyword: string;
  message?: string;
  params: Record<string, unknown>;
}

/** `/payload/page` -> `payload.page`; `/citations/3/url` -> `citations[3].url`. */
function fieldPath(instancePath: string): string {
  let out = '';
  for (const seg of instancePath.split('/').slice(1)) {
    const s = seg.replace(/~1/g, '/').replace(/~0/g, '~');
    out += /^\d+$/.test(s) ? `[${s}]` : out ? `.${s}` : s;
  }
  return out;
}

/** One `{field, message}` per problem, from ajv errors; noise from `anyOf` branches is folded. */
export function ajvToProblems(errors: readonly AjvLikeError[], prefix = ''): FieldProblem[] {
  const seen = new Set<string>();
  const out: FieldProblem[] = [];
  const join = (a: string, b: string) => (a && b ? (b.startsWith('[') ? a + b : `${a}.${b}`) : a || b);
  for (const e of errors) {
    let field = join(prefix, fieldPath(e.instancePath ?? ''));
    let message = e.message ?? 'is invalid';
    if (e.keyword === 'required') {
      field = join(field, String(e.params.missingProperty));
      message = 'is required';
    } else if (e.keyword === 'enum') {
      const allowed = (e.params.allowedValues as unknown[] | undefined) ?? [];
      message = allowed.length <= 30 ? `must be one of ${allowed.join(', ')}` : 'is not an allowed value';
    } else if (e.keyword === 'additionalProperties' && typeof e.params.additionalProperty === 'string') {
      // Name the unknown member itself, so a typo is found at once.
      field = join(field, e.params.additionalProperty);
      message = 'is not a known member';
    } else if (e.keyword === 'pattern') {
      message = 'has an invalid format';
    } else if (e.keyword === 'anyOf') {
      message = 'must be a URL string or a citation object with an http(s) url';
    }
    const key = `${field}\u0000${message}`;
    if (seen.has(key)) continue;
    seen.add(key);
    out.push({ field, message });
  }
  // When anyOf failed, its branch errors only add noise: keep the summary line for that field.
  const anyOfFields = new Set(out.filter((p) => p.message.startsWith('must be a URL string')).map((p) => p.field));
  return out.filter(
    (p) =>
      p.message.startsWith('must be a URL string') ||
      ![...anyOfFields].some((f) => p.field === f || p.field.startsWith(`${f}.`)),
  );
}
