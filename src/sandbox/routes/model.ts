import type { FastifyInstance, FastifyReply } from 'fastify';
import type { SimContext } from '../sim-context.js';

/**
 * An OpenAI-compatible `POST /v1/chat/completions` for the analysis model (docs/analysis.md#s2-10,
 * #s2-11). The purpose comes from `response_format.json_schema.name`, the input from the first
 * user message (a JSON object); answers are computed deterministically from it with small lexical
 * rules, in the purpose's schema, with provider-style `usage`. Directives anywhere in the messages
 * (§2.11.4), optionally scoped to purposes (`sandbox:analysis_error=brand_decisions,requirements`):
 *   analysis_error    500 server_error              analysis_timeout  never answers
 *   analysis_invalid  prose instead of JSON, also on the repair call
 *   analysis_repair   first answer misses a field; the repair call (it carries an assistant turn) is valid
 *   analysis_badquote quotes that are not in the text    analysis_nousage  no `usage` member
 */
type Obj = Record<string, unknown>;
type Directive = 'error' | 'timeout' | 'invalid' | 'repair' | 'badquote' | 'nousage';

const isObj = (v: unknown): v is Obj => typeof v === 'object' && v !== null && !Array.isArray(v);
const strOf = (v: unknown): string => (typeof v === 'string' ? v : '');
const list = (v: unknown): Obj[] => (Array.isArray(v) ? v.filter(isObj) : []);

function directives(text: string, purpose: string): Set<Directive> {
  const out = new Set<Directive>();
  for (const m of text.matchAll(/sandbox:analysis_(error|timeout|invalid|repair|badquote|nousage)(?:=([a-z_,]+))?/g)) {
    const scope = m[2]?.split(',') ?? null;
    if (!scope || scope.includes(purpose)) out.add(m[1] as Directive);
  }
  return out;
}

/** Content words (Latin lower-cased, ≥ 2 letters) plus Hangul character bigrams: spacing-blind. */
function terms(text: string): Set<string> {
  const out = new Set<string>();
  for (const w of text.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? []) {
    if (/\p{Script=Hangul}/u.test(w)) {
      const chars = [...w];
      if (chars.length === 1) out.add(w);
      for (let i = 0; i + 1 < chars.length; i++) out.add(chars[i]! + chars[i + 1]!);
    } else if (w.length >= 2 && !STOP.has(w)) out.add(w);
  }
  return out;
}
const STOP = new Set(
  (
    'the and for are is was were with that this what which how best ' +
    'of to in on a an by it its be as at or from can do does you your i'
  ).split(' '),
);

function overlap(needle: string, hay: string): number {
  const n = terms(needle);
  if (n.size === 0) return 0;
  const h = terms(hay);
  let hit = 0;
  for (const t of n) if (h.has(t)) hit++;
  return hit / n.size;
}

const numbers = (s: string) => new Set((s.match(/\d+(?:[.,]\d+)*/g) ?? []).map((x) => x.replace(/,/g, '')));

function modelCheck(input: Obj): Obj {
  const judgements = list(input.pairs).map((p) => {
    const claim = strOf(p.claim);
    const passage = strOf(p.passage);
    let level = overlap(claim, passage) >= 0.7 ? 2 : overlap(claim, passage) >= 0.4 ? 1 : 0;
    const nums = numbers(claim);
    const have = numbers(passage);
    if ([...nums].some((n) => !have.has(n))) level = Math.max(0, level - 1); // a wrong statistic is not support
    return { id: strOf(p.id), label: (['unsupported', 'partial', 'supported'] as const)[level] };
  });
  return { judgements };
}

const LEAD =
  /^(?:what|which|who|how|where|when|why|are|is|do|does|can|should|the|a|an|best|top|recommend|me|some|any|good)\b\s*/i;
const TAIL = /\s*(?:추천해\s?줘|알려\s?줘|추천|뭐야|뭐가 좋아|어때|인가요|있나요|해줘|please)?\s*[?.!]*\s*$/;

function requirements(input: Obj, bad: boolean): Obj {
  const question = strOf(input.question);
  const hints = list(input.hints)
    .map((h) => ({ type: strOf(h.type), quote: strOf(h.quote) }))
    .filter((h) => h.quote && question.includes(h.quote));
  // The topic: the longest stretch of the question outside the hint spans, without question words.
  let rest = question;
  for (const h of hints) rest = rest.split(h.quote).join('\u0000');
  let topic = '';
  for (const part of rest.split('\u0000')) {
    let t = part.trim().replace(/^[,;:\s]+|(?<![,;:\s])[,;:\s]+$/g, '');
    for (let i = 0; i < 6 && LEAD.test(t); i++) t = t.replace(LEAD, '');
    t = t
      .replace(TAIL, '')
      .replace(/(?<!\s)\s+(?:in|for|under|near|with|at)$/i, '')
      .trim();
    if (t.length > topic.length && question.includes(t)) topic = t;
  }
  const items: Obj[] = [];
  if (topic.length >= 2)
    items.push({ text: `topic: ${topic}`.slice(0, 80), quote: topic, type: 'topic', mandatory: true });
  for (const h of hints)
    items.push({
      text: `${h.type.replace('_set', '')}: ${h.quote}`.slice(0, 80),
      quote: h.quote,
      type: h.type,
      mandatory: h.type !== 'time',
    });
  return { items: items.map((it) => (bad ? { ...it, quote: `${strOf(it.quote)} (paraphrased)` } : it)) };
}

function coverage(input: Obj): Obj {
  const units = new Map(list(input.units).map((u) => [Number(u.index), strOf(u.text)]));
  const results = list(input.requirements).map((r) => {
    const need = `${strOf(r.text).replace(/^[a-z_]+:\s*/, '')} ${strOf(r.quote)}`;
    const cands = (Array.isArray(r.candidateUnits) ? r.candidateUnits : []).filter(
      (i): i is number => typeof i === 'number',
    );
    const scored = cands.map((i) => ({ i, s: overlap(need, units.get(i) ?? '') })).filter((x) => x.s >= 0.3);
    const best = Math.max(0, ...scored.map((x) => x.s));
    return {
      id: strOf(r.id),
      coverage: best >= 0.6 ? 'addressed' : best >= 0.3 ? 'partial' : 'not_addressed',
      unitIndexes: scored.map((x) => x.i).sort((a, b) => a - b),
    };
  });
  return { results };
}

const PRO = /\b(?:best|recommend(?:ed)?|top pick|great|excellent|ideal|favou?rite|reliable)\b|추천|최고|좋|우수|적합/i;
const CON =
  /\b(?:avoid|expensive|however|downside|drawback|worse|poor|not recommended|overpriced)\b|단점|비싸|아쉽|주의|별로/i;
const compact = (s: string) => s.toLowerCase().replace(/\s+/g, '');

function brandDecisions(input: Obj, bad: boolean): Obj {
  const units = list(input.units).map((u) => ({ index: Number(u.index), text: strOf(u.text) }));
  const entities = list(input.entities).map((e) => ({ entityId: strOf(e.entityId), name: strOf(e.name) }));
  const firstPickDone = { value: false };
  const out = entities.map((e) => {
    const mentions = units.filter((u) => compact(u.text).includes(compact(e.name)));
    let pro = 0;
    let con = 0;
    const reasons: Obj[] = [];
    for (const u of mentions) {
      const isPro = PRO.test(u.text);
      const isCon = CON.test(u.text);
      pro += isPro ? 1 : 0;
      con += isCon ? 1 : 0;
      if (!isPro && !isCon) continue;
      const quote = u.text.slice(0, 160);
      reasons.push({
        polarity: isCon ? 'con' : 'pro',
        summary: `${isCon ? 'reservation' : 'praise'} about ${e.name}`,
        quote: bad ? `${quote} (paraphrased)` : quote,
        unitIndex: u.index,
      });
    }
    const decision = pro > 0 && con > 0 ? 'mixed' : pro > 0 ? 'recommended' : con > 0 ? 'not_recommended' : 'mentioned';
    const topPick = decision === 'recommended' && !firstPickDone.value;
    if (topPick) firstPickDone.value = true;
    const sentiment = pro + con === 0 ? 0 : Math.round(((pro - con) / (pro + con)) * 100) / 100;
    return { entityId: e.entityId, decision, topPick, sentiment, reasons };
  });
  // Other brands: capitalised words that are not sentence-initial, not listed, seen at least twice.
  const listed = new Set(entities.map((e) => compact(e.name)));
  const seen = new Map<string, number>();
  for (const u of units)
    for (const m of u.text.matchAll(/(?<=\S\s+)[A-Z][a-z]{2,}(?:\s[A-Z0-9][a-z0-9]*)?/g))
      seen.set(m[0], (seen.get(m[0]) ?? 0) + 1);
  const otherBrands = [...seen]
    .filter(([name, n]) => n >= 2 && !listed.has(compact(name)))
    .sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1))
    .slice(0, 5)
    .map(([name]) => ({ name, decision: 'mentioned' }));
  return { entities: out, otherBrands };
}

const TYPE_RULES: ReadonlyArray<[RegExp, string]> = [
  [/forum|community|reddit|질문|카페|게시판/, 'ugc_forum'],
  [/blog|tistory|블로그/, 'ugc_social'],
  [/review|후기|리뷰/, 'review_site'],
  [/shop|store|product|pricing|구매|쇼핑|판매/, 'vendor_page'],
  [/news|뉴스|기자|press/, 'news'],
  [/wiki|dictionary|사전/, 'reference'],
];

function classification(input: Obj): Obj {
  const entities = list(input.entities).map((e) => ({ entityId: strOf(e.entityId), name: strOf(e.name) }));
  const sources = list(input.sources).map((s) => {
    const text = `${strOf(s.url)} ${strOf(s.title)} ${strOf(s.siteName)} ${strOf(s.excerpt)}`.toLowerCase();
    const sourceType = TYPE_RULES.find(([re]) => re.test(text))?.[1] ?? 'editorial';
    const site = compact(`${strOf(s.siteName)} ${strOf(s.title)} ${strOf(s.url)}`);
    const owner = entities.find((e) => compact(e.name).length >= 2 && site.includes(compact(e.name)));
    if (owner)
      return {
        sourceId: strOf(s.sourceId),
        sourceType,
        ownership: 'owned',
        entityId: owner.entityId,
        confidence: 0.65,
      };
    return {
      sourceId: strOf(s.sourceId),
      sourceType,
      ownership: entities.length > 0 ? 'not_owned' : 'unknown',
      entityId: null,
      confidence: 0.55,
    };
  });
  return { sources };
}

function answerFor(purpose: string, input: Obj, d: Set<Directive>): Obj | null {
  switch (purpose) {
    case 'model_check':
      return modelCheck(input);
    case 'requirements':
      return requirements(input, d.has('badquote'));
    case 'requirement_coverage':
      return coverage(input);
    case 'brand_decisions':
      return brandDecisions(input, d.has('badquote'));
    case 'source_classification':
      return classification(input);
    default:
      return null;
  }
}

const tokensOf = (s: string) => Math.ceil(Buffer.byteLength(s, 'utf8') / 4);

function completion(
  sim: SimContext,
  model: string,
  seedText: string,
  content: string,
  promptText: string,
  withUsage: boolean,
): Obj {
  const prompt = tokensOf(promptText);
  const completionTokens = tokensOf(content);
  const body: Obj = {
    id: `chatcmpl-sandbox-${sim.hash(seedText + content).toString(36)}`,
    object: 'chat.completion',
    created: 1767225600,
    model,
    choices: [
      { index: 0, message: { role: 'assistant', content, refusal: null }, logprobs: null, finish_reason: 'stop' },
    ],
    system_fingerprint: 'fp_sandbox',
  };
  if (withUsage)
    body.usage = {
      prompt_tokens: prompt,
      completion_tokens: completionTokens,
      total_tokens: prompt + completionTokens,
    };
  return body;
}

const openAiError = (reply: FastifyReply, status: number, message: string, type: string, code: string | null) =>
  reply
    .code(status)
    .type('application/json')
    .send({ error: { message, type, param: null, code } });

export function registerModel(app: FastifyInstance, sim: SimContext): void {
  app.post('/v1/chat/completions', async (req, reply) => {
    if (!/^Bearer \S+/.test(String(req.headers.authorization ?? '')))
      return openAiError(reply, 401, 'Invalid API key', 'invalid_request_error', 'invalid_api_key');
    let body: unknown;
    try {
      body = typeof req.body === 'string' ? JSON.parse(req.body) : req.body;
    } catch {
      return openAiError(
        reply,
        400,
        'We could not parse the JSON body of your request.',
        'invalid_request_error',
        null,
      );
    }
    if (!isObj(body) || !Array.isArray(body.messages))
      return openAiError(
        reply,
        400,
        "Missing required parameter: 'messages'.",
        'invalid_request_error',
        'missing_required_parameter',
      );
    const messages = list(body.messages);
    const rf = isObj(body.response_format) ? body.response_format : {};
    const purpose = strOf(isObj(rf.json_schema) ? rf.json_schema.name : '');
    const allText = messages.map((m) => strOf(m.content)).join('\n');
    const d = directives(allText, purpose);
    if (d.has('timeout')) {
      await new Promise<void>((resolve) => reply.raw.on('close', () => resolve()));
      return reply;
    }
    if (d.has('error'))
      return openAiError(
        reply,
        500,
        'The server had an error while processing your request. Sorry about that!',
        'server_error',
        null,
      );
    const firstUser = messages.find((m) => m.role === 'user');
    let input: unknown = null;
    try {
      input = JSON.parse(strOf(firstUser?.content));
    } catch {
      input = null;
    }
    const answer = isObj(input) ? answerFor(purpose, input, d) : null;
    if (!answer)
      return openAiError(
        reply,
        400,
        'response_format json_schema with a known name and a JSON user message are required.',
        'invalid_request_error',
        null,
      );
    const isRepair = messages.some((m) => m.role === 'assistant');
    let content = JSON.stringify(answer);
    if (d.has('invalid')) content = 'Sure! Here is my analysis of the answer you sent.';
    else if (d.has('repair') && !isRepair) content = JSON.stringify({ result: answer });
    const model = strOf(body.model) || 'sandbox-model';
    return reply.type('application/json').send(completion(sim, model, allText, content, allText, !d.has('nousage')));
  });
}
