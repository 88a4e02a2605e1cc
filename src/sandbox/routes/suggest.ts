import type { FastifyInstance, FastifyReply } from 'fastify';
import type { SimContext } from '../sim-context.js';
import {
  EN_AFTER_WORD,
  EN_LETTERS,
  EN_QUESTION_DONE,
  EN_QUESTIONS,
  EN_TAILS,
  EN_WRONG_SCRIPT,
  enExtendTails,
  KO_HOW_TO,
  KO_QUESTION_TAILS,
  KO_QUESTION_WORD_TAILS,
  KO_SYLLABLES,
  koExtendTails,
  koTails,
  lastYear,
  thisYear,
  TOPICS,
  type Topic,
  withParticle,
} from './suggest-words.js';
import { escapeHtml } from '../../text/html-escape.js';

/**
 * Google autocomplete (docs/analysis.md#s3-1, docs/engines.md#google-autocomplete): `GET /complete/search` with
 * `client=firefox` (`[q, [s…], [], {…}]`), `client=chrome` (adds descriptions, suggest types and
 * relevance) and `client=gws-wiz` (`)]}'` + arrays with `<b>` markup). Completions are generated
 * deterministically from the typed prefix with the word lists of suggest-words.ts (general
 * modifiers for any seed, topic words only for their topic), in popularity order, including a few
 * navigational and wrong-script ones so the filters have work to do. The answers are simulated:
 * prompt research names this upstream `sandbox_google_autocomplete` / `sandbox_naver_autocomplete`.
 * `sandbox:captcha` answers the 429 sorry page, `sandbox:empty` an empty list.
 */

type Lang = 'en' | 'ko';
export type SuggestProvider = 'google' | 'naver';

const HANGUL = /\p{Script=Hangul}/u;

function keep(sim: SimContext, q: string, tail: string): boolean {
  return sim.hash(`${q}\u0000${tail}`, 'suggest') % 10 < 7;
}

/** Adds `q + sep + tail` for the kept tails that the prefix does not already contain. */
function extend(out: string[], sim: SimContext, q: string, tails: readonly string[], sep = ' '): void {
  for (const t of tails) if (!q.includes(t.split(' ')[0] ?? t) && keep(sim, q, t)) out.push(`${q}${sep}${t}`);
}

/** General words with the topic's words after the two most popular general ones. */
function merged(general: readonly string[], topical: readonly string[]): string[] {
  return [...general.slice(0, 2), ...topical, ...general.slice(2)];
}

function englishSuggestions(sim: SimContext, q: string, topic: Topic | undefined): string[] {
  const words = q.split(' ');
  const last = words[words.length - 1] ?? '';
  const base = words.slice(0, -1).join(' ');
  const out: string[] = [];
  const question = EN_QUESTIONS.find(([re]) => re.test(q));
  const afterWord = [...(topic?.afterWord?.[last.toLowerCase()] ?? []), ...(EN_AFTER_WORD[last.toLowerCase()] ?? [])];
  if (words.length > 1 && /^[a-z]$/i.test(last)) {
    const letter = last.toLowerCase();
    for (const w of [...(topic?.letters?.[letter] ?? []), ...(EN_LETTERS[letter] ?? [])]) out.push(`${base} ${w}`);
  } else if (question && !EN_QUESTION_DONE.test(q)) {
    const subject = (question[0].exec(q)?.[1] ?? '').trim();
    const made = question[1](subject);
    if (/^how to\b/i.test(q)) made.unshift(...(topic?.howTo ?? []).map((v) => `how to ${v} ${subject}`));
    for (const s of made) if (keep(sim, q, s)) out.push(s);
  } else if (/\b(vs|versus|or|for|with|without)$/i.test(q)) {
    for (const t of afterWord) if (keep(sim, q, t)) out.push(`${q} ${t}`);
  } else if (/\bnear me$/i.test(q)) {
    // Only a topic people buy in shops has completions here.
    if (topic) extend(out, sim, q, enExtendTails());
  } else if (/^best\b/i.test(q)) {
    extend(out, sim, q, merged([thisYear(), 'for beginners'], topic?.extendTails ?? []));
  } else if (question || /\b(review|price|cost|alternatives|worth it|\d+)$/i.test(q)) {
    extend(out, sim, q, /\d$/.test(q) ? [] : enExtendTails());
  } else {
    extend(out, sim, q, merged(EN_TAILS, topic?.tails ?? []));
    // `best X` fits a kind of product, not any seed (`best pydantic`): topics only.
    if (topic && !/^best\b/i.test(q)) out.splice(2, 0, `best ${q} ${thisYear()}`, `best ${q} ${lastYear()}`);
    if (sim.hash(q, 'foreign') % 2 === 0) out.splice(5, 0, `${q} ${EN_WRONG_SCRIPT[sim.hash(q, 'which') % 2]}`);
  }
  return out;
}

function koreanSuggestions(sim: SimContext, q: string, topic: Topic | undefined, provider: SuggestProvider): string[] {
  const words = q.split(' ');
  const last = words[words.length - 1] ?? '';
  const base = words.slice(0, -1).join(' ');
  const out: string[] = [];
  const syllables = [...(topic?.letters?.[last] ?? []), ...(KO_SYLLABLES[last] ?? [])];
  const questionWord = [...(topic?.questionWordTails?.[last] ?? []), ...(KO_QUESTION_WORD_TAILS[last] ?? [])];
  if (words.length > 1 && [...last].length === 1 && /\p{Script=Hangul}/u.test(last)) {
    for (const w of syllables) out.push(`${base} ${w}`);
  } else if (words.length > 1 && questionWord.length > 0) {
    for (const t of questionWord) out.push(`${base} ${t}`);
  } else if (/^(어떤|왜)\s/.test(q)) {
    const tails = [...KO_QUESTION_TAILS, ...(topic?.questionTails ?? [])].map((t) => withParticle(q, t));
    extend(out, sim, q, tails, '');
  } else if (/\s(방법|하는\s?법)$/.test(q)) {
    for (const t of topic?.howToKo ?? KO_HOW_TO) if (keep(sim, q, t)) out.push(`${base} ${t}`);
  } else if (/\svs$/i.test(q)) {
    for (const t of topic?.versus ?? []) if (keep(sim, q, t)) out.push(`${q} ${t}`);
  } else if (KO_INTENT_END.test(q)) {
    const general = koExtendTails().find(([re]) => re.test(q))?.[1] ?? [];
    const tails = merged(general, /추천$/.test(q) ? (topic?.extendTails ?? []) : []);
    extend(out, sim, q, /\d/.test(q) ? tails.filter((t) => !/\d/.test(t)) : tails);
  } else {
    const tails = koTails();
    extend(out, sim, q, merged(tails, topic?.tails ?? []));
    // People also type the topic without spaces: a spacing variant of the top completion.
    if (q.includes(' ')) out.splice(1, 0, `${q.replace(/\s+/g, '')} ${tails[0]}`);
    const extra = provider === 'naver' ? topic?.naverExtra : topic?.googleExtra;
    if (extra) out.splice(provider === 'naver' ? 6 : 4, 0, ...extra);
  }
  return out;
}

const KO_INTENT_END =
  /(추천|비교|차이|방법|하는법|뜻|가격|비용|후기|리뷰|순위|장단점|종류|효과|부작용|가성비|브랜드|vs|\d)$/;

/** Deterministic completions of a typed prefix (up to 10), most popular first. */
export function sandboxSuggestions(sim: SimContext, prefix: string, lang: Lang, provider: SuggestProvider): string[] {
  const q = prefix.replace(/\s+/g, ' ').trim();
  if (!q) return [];
  const topic = TOPICS.find((t) => t.match.test(q));
  const out = lang === 'ko' ? koreanSuggestions(sim, q, topic, provider) : englishSuggestions(sim, q, topic);
  return [...new Set(out)].filter((s) => s.toLowerCase() !== q.toLowerCase()).slice(0, 10);
}

export function suggestLanguage(hl: string | undefined, q: string): Lang {
  return hl === 'ko' || HANGUL.test(q) ? 'ko' : 'en';
}

const isDomainLike = (s: string) => /\.(com|net|co\.kr|org)\b|www\./i.test(s);

/** gws-wiz marks the completed part in bold. */
function bolded(q: string, s: string): string {
  return s.toLowerCase().startsWith(q.toLowerCase())
    ? `${escapeHtml(s.slice(0, q.length))}<b>${escapeHtml(s.slice(q.length))}</b>`
    : `<b>${escapeHtml(s)}</b>`;
}

function sorryPage(q: string): string {
  const cont = `https://www.google.com/complete/search?q=${encodeURIComponent(q)}`;
  return (
    `<html><head><title>${escapeHtml(cont)}</title></head><body><div style="max-width:400px">
<form id="captcha-form" action="index" method="post">` +
    `<div class="g-recaptcha" data-sitekey="sandbox" data-s="sandbox"></div>
<input type="hidden" name="continue" value="${escapeHtml(cont)}"></form>
<div>Our systems have detected unusual traffic from your computer network. This ` +
    `page checks to see if it's really you sending the requests, and not a robot.</div>
<div>IP address: 203.0.113.7<br>Time: 2026-07-01T10:00:00Z<br>URL: ${escapeHtml(cont)}</div></div></body></html>`
  );
}

const error5xx = (reply: FastifyReply) =>
  reply
    .code(503)
    .type('text/html; charset=UTF-8')
    .send('<html><head><title>Error 503 (Server Error)</title></head><body><p>503. That’s an error.</p></body></html>');

export function registerGoogleSuggest(app: FastifyInstance, sim: SimContext): void {
  app.get('/complete/search', async (req, reply) => {
    const params = req.query as Record<string, string | undefined>;
    const q = params.q ?? '';
    const client = params.client ?? 'firefox';
    const d = await sim.gate('google-suggest', q, reply, error5xx);
    if (!d) return reply;
    if (d.captcha) return reply.code(429).type('text/html; charset=UTF-8').send(sorryPage(q));
    const list = d.empty ? [] : sandboxSuggestions(sim, sim.clean(q), suggestLanguage(params.hl, q), 'google');
    if (client === 'gws-wiz') {
      const body = [
        list.map((s) => [bolded(q, s), 0, [512, 433]]),
        { ag: { a: { 8: ['Related searches'] } }, i: q, q: sim.hash(q).toString(36), t: { bpc: false, tlw: false } },
      ];
      return reply.type('application/json; charset=UTF-8').send(`)]}'\n${JSON.stringify(body)}`);
    }
    if (client === 'chrome') {
      const types = list.map((s) => (isDomainLike(s) ? 'NAVIGATION' : 'QUERY'));
      const meta = {
        'google:clientdata': { bpc: false, tlw: false },
        'google:suggestrelevance': list.map((_, i) => 1250 - i * 50),
        'google:suggestsubtypes': list.map(() => [512, 433]),
        'google:suggesttype': types,
        'google:verbatimrelevance': 1300,
      };
      return reply.type('text/javascript; charset=UTF-8').send(JSON.stringify([q, list, list.map(() => ''), [], meta]));
    }
    return reply
      .type('text/javascript; charset=UTF-8')
      .send(JSON.stringify([q, list, [], { 'google:suggestsubtypes': list.map(() => [512]) }]));
  });
}
