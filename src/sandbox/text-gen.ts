import type { SimContext } from './sim-context.js';

/**
 * Deterministic filler for simulated answers: the same prompt always yields the same sentences and
 * sources, and Hangul prompts get Korean text.
 */
const EN = [
  'is widely discussed by practitioners',
  'has changed considerably over the last two years',
  'depends mostly on budget and intended use',
  'is compared most often on price, quality and support',
  'is covered in depth by independent reviewers',
  'has a small number of clear market leaders',
];
const KO = [
  '에 대해 많은 사람들이 관심을 가지고 있습니다',
  '은 최근 2년 동안 크게 달라졌습니다',
  '은 예산과 용도에 따라 선택이 달라집니다',
  '은 가격, 품질, 지원으로 주로 비교됩니다',
];
const SITES = [
  'example.com',
  'example.org',
  'example.net',
  'news.example.co.kr',
  'blog.example.com',
  'docs.example.dev',
];

export function isKorean(text: string): boolean {
  return /\p{Script=Hangul}/u.test(text);
}

export function fakeSentences(sim: SimContext, topic: string, n: number): string[] {
  const subject = topic.replace(/(?<![?.!])[?.!]+$/, '') || 'This topic';
  const pool = isKorean(topic) ? KO : EN;
  const out: string[] = [];
  for (let i = 0; i < n; i++) {
    const phrase = pool[(sim.hash(topic, `s${i}`) + i) % pool.length] as string;
    out.push(isKorean(topic) ? `${subject}${phrase}.` : `${subject} ${phrase}.`);
  }
  return out;
}

export interface FakeCitation {
  url: string;
  title: string;
}

/** `n` sources for a topic; `engine` (a task type) makes each engine's sources its own, as real engines' differ. */
export function fakeCitations(sim: SimContext, topic: string, n: number, engine = ''): FakeCitation[] {
  const slug = encodeURIComponent(topic.toLowerCase().replace(/\s+/g, '-').slice(0, 40)) || 'topic';
  const out: FakeCitation[] = [];
  for (let i = 0; i < n; i++) {
    const site = SITES[(sim.hash(topic, `${engine}c${i}`) + i) % SITES.length] as string;
    out.push({ url: `https://${site}/${slug}-${i + 1}`, title: `${topic.slice(0, 60)} — source ${i + 1}` });
  }
  return out;
}
