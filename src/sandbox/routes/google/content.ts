import type { SimContext } from '../../sim-context.js';
import { isKorean } from '../../text-gen.js';

/**
 * Deterministic content of the simulated Google pages: the same query (and page) always yields the
 * same results, answer and sources. Text is Korean when the page is served in Korean (`hl=ko`) or the
 * query is Hangul, so a test can see which language the upstream was asked for.
 */
export interface PageLocale {
  hl: string;
  /** The country the page is served for, named in the footer as Google does (docs/engines.md#google-served-region). */
  country: string;
  korean: boolean;
  aioLabel: string;
  resultsHeading: string;
  nextLabel: string;
  nextAria: string;
  titleSuffix: string;
  noResults: (escapedQuery: string) => string;
  mistakes: string;
  learnMore: string;
  sitesButton: (n: number) => string;
  keyPoints: string;
  comparison: string;
  peopleAlsoAsk: string;
  showMore: string;
  /** The fallback lines that sit hidden in the overview block. */
  aioUnavailableNow: string;
  aioNotAvailable: string;
}

const EN: Omit<PageLocale, 'hl' | 'korean' | 'country'> = {
  aioLabel: 'AI Overview',
  resultsHeading: 'Search Results',
  nextLabel: 'Next',
  nextAria: 'Next page',
  titleSuffix: 'Google Search',
  noResults: (q) => `Your search - <em>${q}</em> - did not match any documents.`,
  mistakes: 'AI responses may include mistakes.',
  learnMore: 'Learn more',
  sitesButton: (n) => `${n} sites`,
  keyPoints: 'Key points',
  comparison: 'At a glance',
  peopleAlsoAsk: 'People also ask',
  showMore: 'Show more',
  aioUnavailableNow: "Can't generate an AI overview right now. Try again later.",
  aioNotAvailable: 'An AI Overview is not available for this search',
};
const KO: Omit<PageLocale, 'hl' | 'korean' | 'country'> = {
  aioLabel: 'AI 개요',
  resultsHeading: '검색결과',
  nextLabel: '다음',
  nextAria: '다음 페이지',
  titleSuffix: 'Google 검색',
  noResults: (q) => `검색어 - <em>${q}</em> - 와(과) 일치하는 검색결과가 없습니다.`,
  mistakes: 'AI 대답에 실수가 있을 수 있습니다.',
  learnMore: '자세히 알아보기',
  sitesButton: (n) => `사이트 ${n}개`,
  keyPoints: '핵심 요약',
  comparison: '한눈에 보기',
  peopleAlsoAsk: '관련 질문',
  showMore: '더보기',
  aioUnavailableNow: '지금은 AI 개요를 생성할 수 없습니다. 나중에 다시 시도하세요.',
  aioNotAvailable: '이 검색에는 AI 개요를 사용할 수 없습니다',
};
/** Only the AI Overview heading is localised for these; it is what the parser anchors on. */
const AIO_LABEL_BY_LANGUAGE: Readonly<Record<string, string>> = { ja: 'AI による概要', de: 'Übersicht mit KI' };

export function pageLocale(hl: string | undefined, topic: string, country: string): PageLocale {
  const lang = (hl ?? 'en').toLowerCase().split('-')[0] ?? 'en';
  const korean = lang === 'ko' || isKorean(topic);
  const base = lang === 'ko' ? KO : EN;
  return { ...base, hl: hl ?? 'en', country, korean, aioLabel: AIO_LABEL_BY_LANGUAGE[lang] ?? base.aioLabel };
}

/** The country's name in the page's language, as Google's footer shows it. */
export function countryName(hl: string, country: string): string {
  try {
    return new Intl.DisplayNames([hl], { type: 'region', fallback: 'code' }).of(country) ?? country;
  } catch {
    return country;
  }
}

const SITES: ReadonlyArray<[host: string, name: string]> = [
  ['www.example.com', 'Example'],
  ['guide.example.org', 'Example Guides'],
  ['www.reviews.example.net', 'Example Reviews'],
  ['news.example.co.kr', '예시뉴스'],
  ['blog.example.dev', 'Example Dev Blog'],
  ['forum.example.io', 'Example Forum'],
  ['en.wikipedia.org', 'Wikipedia'],
  ['docs.example.dev', 'Example Docs'],
];
const EN_TITLES = [
  'A complete guide',
  'What you need to know',
  'Explained',
  'Tips and common mistakes',
  'Compared and reviewed',
  'Frequently asked questions',
];
const KO_TITLES = ['완벽 가이드', '꼭 알아야 할 것', '쉽게 정리', '팁과 흔한 실수', '비교 및 후기', '자주 묻는 질문'];
const EN_SNIPPETS = [
  'is explained step by step, with examples and the trade-offs to watch for.',
  'has changed a lot recently; this article summarises what matters today.',
  'depends mostly on budget and intended use, according to independent testers.',
  'is compared here on price, quality and support.',
  'is covered in depth, including the questions readers ask most often.',
];
const KO_SNIPPETS = [
  '에 대해 예시와 함께 단계별로 설명합니다.',
  '은 최근 크게 달라졌으며, 지금 중요한 점을 정리했습니다.',
  '은 예산과 용도에 따라 선택이 달라집니다.',
  '을 가격, 품질, 지원 측면에서 비교합니다.',
  '에 대해 독자들이 가장 많이 묻는 질문을 다룹니다.',
];
const EN_FACTS = [
  'is widely discussed by practitioners and reviewers',
  'has changed considerably over the last two years',
  'depends mostly on budget and intended use',
  'is usually compared on price, quality and support',
  'has a small number of clear market leaders',
  'is easier to evaluate with a short checklist',
];
const KO_FACTS = [
  '에 대해 많은 사람들이 관심을 가지고 있습니다',
  '은 최근 2년 동안 크게 달라졌습니다',
  '은 예산과 용도에 따라 선택이 달라집니다',
  '은 가격, 품질, 지원으로 주로 비교됩니다',
  '은 몇몇 선도 업체가 시장을 이끌고 있습니다',
  '은 간단한 점검표로 비교하기 쉽습니다',
];

export interface FakeResult {
  url: string;
  title: string;
  snippet: string;
  siteName: string;
  displayUrl: string;
}

/** Organic results of page `page` (1-based): 8 to 10 per page, unique URLs across pages. */
export function fakeResults(sim: SimContext, topic: string, page: number, locale: PageLocale): FakeResult[] {
  const count = 8 + (sim.hash(topic, `count${page}`) % 3);
  const slug = slugOf(topic);
  const out: FakeResult[] = [];
  for (let i = 0; i < count; i++) {
    const rank = (page - 1) * 10 + i + 1;
    const [host, siteName] = pick(SITES, sim.hash(topic, `site${rank}`));
    const titles = locale.korean ? KO_TITLES : EN_TITLES;
    const snippets = locale.korean ? KO_SNIPPETS : EN_SNIPPETS;
    out.push({
      url: `https://${host}/${slug}/${rank}`,
      title: `${topic} — ${pick(titles, sim.hash(topic, `title${rank}`))} | ${siteName}`,
      snippet: `${topic}${locale.korean ? '' : ' '}${pick(snippets, sim.hash(topic, `snip${rank}`))}`,
      siteName,
      displayUrl: `https://${host} › ${slug}`,
    });
  }
  return out;
}

/** Sentences of a generated answer, in the page's language. */
export function fakeFacts(sim: SimContext, topic: string, n: number, locale: PageLocale): string[] {
  const pool = locale.korean ? KO_FACTS : EN_FACTS;
  const out: string[] = [];
  for (let i = 0; i < n; i++) {
    const phrase = pool[(sim.hash(topic, `fact${i}`) + i) % pool.length] as string;
    out.push(locale.korean ? `${topic}${phrase}.` : `${capitalise(topic)} ${phrase}.`);
  }
  return out;
}

export interface FakeCitation {
  url: string;
  title: string;
  host: string;
}

/**
 * Citations of a generated answer; the first carries a `#:~:text=` highlight, as Google's do. `engine` (a task type)
 * makes the AI Overview's and AI Mode's sources their own.
 */
export function fakeAnswerCitations(sim: SimContext, topic: string, n: number, engine = ''): FakeCitation[] {
  const slug = slugOf(topic);
  const out: FakeCitation[] = [];
  for (let i = 0; i < n; i++) {
    const [host, siteName] = SITES[(sim.hash(topic, `${engine}cite${i}`) + i) % SITES.length] as [string, string];
    out.push({
      url: `https://${host}/${slug}/answer-${i + 1}`,
      title: `${topic} — ${siteName}`,
      host: host.replace(/^www\./, ''),
    });
  }
  return out;
}

function slugOf(topic: string): string {
  return encodeURIComponent(topic.toLowerCase().replace(/\s+/g, '-').slice(0, 40)) || 'topic';
}

function pick<T>(list: readonly T[], n: number): T {
  return list[n % list.length] as T;
}

function capitalise(s: string): string {
  return s.charAt(0).toUpperCase() + s.slice(1);
}
