import { describe, expect, it } from 'vitest';
import { wilsonInterval } from '../../src/analysis/visibility/intervals.js';
import {
  answerFacts,
  type CompetitorBrand,
  hostWithin,
  type MonitoredBrand,
  mentions,
  ownDomainHost,
  type RunAnswer,
  VISIBILITY_METHOD_VERSION,
  visibilityMetrics,
} from '../../src/analysis/visibility/index.js';

/** The visibility metrics of monitors (docs/analysis.md#s6), on worked examples whose figures are in §6.5. */

/** The matched substrings of `text`, read back through the reported offsets. */
function found(text: string, names: string[]): string[] {
  return mentions(text, names).map((m) => text.slice(m.start, m.end));
}

function answered(text: string, ...urls: string[]): RunAnswer {
  return { status: 'answered', answer: { text, sources: urls.map((url) => ({ url })) } };
}

describe('brand mentions: word boundaries, case, NFKC (§6.1)', () => {
  it('matches whole words only, in any case, and reports offsets', () => {
    const text = "Nike and Nikesh, NIKE. Nike's shoes; SNIKE";
    // "Nike" at 0, "NIKE" at 17, "Nike" (before 's) at 23; "Nikesh" and "SNIKE" are other words.
    expect(mentions(text, ['Nike']).map((m) => [m.start, m.end, m.name])).toEqual([
      [0, 4, 'Nike'],
      [17, 21, 'Nike'],
      [23, 27, 'Nike'],
    ]);
  });

  it('treats dashes, apostrophes and digits as part of the name', () => {
    expect(found('S-Oil, S‐OIL (U+2010) and SOil', ['S-Oil'])).toEqual(['S-Oil', 'S‐OIL']);
    // Curly and straight apostrophes; the second é is e + U+0301, composed by NFKC.
    expect(found("L’Oréal or L'Ore\u0301al", ["L'Oréal"])).toEqual(['L’Oréal', "L'Ore\u0301al"]);
    // "13M" and "3MB" are other words; "3M의" is 3M with a particle.
    expect(found('3M, 13M, 3MB, 3M의', ['3M'])).toEqual(['3M', '3M']);
  });

  it('reports offsets in the original text when NFKC changes its length', () => {
    // Full-width ＮＩＫＥ is NIKE after NFKC; "ﬁ" (one character) becomes "fi" (two) before it.
    const text = 'ﬁne ＮＩＫＥ shoes';
    expect(mentions(text, ['Nike'])).toEqual([{ start: 4, end: 8, name: 'Nike' }]);
    // Hangul in conjoining jamo (as macOS copies it): 삼성전자 is 4 syllables, 11 jamo (ᄉ ᅡ ᆷ, ᄉ ᅥ ᆼ, ᄌ ᅥ ᆫ, ᄌ ᅡ),
    // followed by the particle 는 (ᄂ ᅳ ᆫ).
    const nfd = '삼성전자는 최고'.normalize('NFD');
    expect(mentions(nfd, ['삼성전자'])).toEqual([{ start: 0, end: 11, name: '삼성전자' }]);
  });

  it('takes the longest alias at a position, so "Nike Inc" is one mention', () => {
    expect(found('Nike Inc and Nike', ['Nike', 'Nike Inc'])).toEqual(['Nike Inc', 'Nike']);
  });

  it('finds nothing for a name without letters or digits, or without names', () => {
    expect(mentions('Nike - & Nike', [' - ', '&'])).toEqual([]);
    expect(mentions('Nike', [])).toEqual([]);
  });
});

describe('brand mentions in Korean: particles, compounds, spacing (§6.1)', () => {
  it('accepts a name followed by particles, stacked ones too', () => {
    const text = '삼성전자는 삼성전자의 삼성전자에서는 삼성전자와의 삼성전자입니다';
    // Five words, each 삼성전자 plus 는 / 의 / 에서+는 / 와+의 / 입니다: 5 + 1, 5 + 1, 7 + 1, 6 + 1 characters apart.
    expect(mentions(text, ['삼성전자']).map((m) => m.start)).toEqual([0, 6, 12, 20, 27]);
  });

  it('refuses a name inside a longer word: another brand or a noun', () => {
    // 삼성전자서비스 is another company; 가격 after 나이키 starts with 가 but is not a particle chain.
    expect(found('삼성전자서비스 센터', ['삼성전자'])).toEqual([]);
    expect(found('나이키가격 비교', ['나이키'])).toEqual([]);
    // Not preceded by a Hangul syllable: 신나이키 is not 나이키.
    expect(found('신나이키 매장', ['나이키'])).toEqual([]);
    // 삼성 does not match inside 삼성전자, and LG does not match inside LG전자.
    expect(found('삼성전자 제품', ['삼성'])).toEqual([]);
    expect(found('LG전자와 LG는', ['LG'])).toEqual(['LG']);
  });

  it('accepts Latin names with Korean particles and Hangul names with Latin around them', () => {
    expect(found('나이키를 샀고 Nike의 신발과 나이키에서 산 Nike는', ['나이키', 'Nike'])).toEqual([
      '나이키',
      'Nike',
      '나이키',
      'Nike',
    ]);
  });

  it('lets the space inside a Hangul name be left out, not added', () => {
    expect(found('로얄캐닌과 로얄 캐닌', ['로얄 캐닌'])).toEqual(['로얄캐닌', '로얄 캐닌']);
    expect(found('로얄 캐닌', ['로얄캐닌'])).toEqual([]);
  });
});

describe('own domains (§6.2)', () => {
  it('reduces a configured domain to a host and matches subdomains only', () => {
    expect(ownDomainHost('https://www.Nike.com/kr')).toBe('nike.com');
    expect(ownDomainHost('shop.nike.co.kr')).toBe('shop.nike.co.kr');
    // A Unicode domain is compared in the punycode form URL hosts have (삼성.com is xn--cg4bki.com).
    expect(ownDomainHost('삼성.com')).toBe('xn--cg4bki.com');
    const f = answerFacts(
      { text: '삼성', sources: [{ url: 'https://www.삼성.com/' }] },
      {
        name: '삼성',
        aliases: [],
        domains: ['삼성.com'],
      },
    );
    expect(f.citations.map((c) => [c.domain, c.own])).toEqual([['xn--cg4bki.com', true]]);
    expect(hostWithin('news.nike.com', 'nike.com')).toBe(true);
    expect(hostWithin('nike.com', 'nike.com')).toBe(true);
    expect(hostWithin('nikeshoes.com', 'nike.com')).toBe(false);
    expect(hostWithin('nike.com.evil.example', 'nike.com')).toBe(false);
  });
});

describe('the facts of one answer (§6.2)', () => {
  const nike: MonitoredBrand = { name: 'Nike', aliases: [], domains: ['nike.co.kr'] };
  const rivals: CompetitorBrand[] = [
    { name: 'Adidas', aliases: [], domains: ['adidas.com'] },
    { name: 'Hoka', aliases: [] },
  ];

  it('ranks the brand among the tracked brands by first mention and gives its relative offset', () => {
    const text = 'Hoka, Adidas and Nike. Nike again.';
    // First mentions: Hoka 0, Adidas 6, Nike 17 → positions 1, 2, 3; 17 / 34 characters = 0.5.
    const f = answerFacts({ text, sources: [] }, nike, rivals);
    expect(f.mentioned).toBe(true);
    expect(f.firstMention).toEqual({ position: 3, offset: 17, relativeOffset: 0.5 });
    expect(f.brands.map((b) => [b.name, b.count, b.position])).toEqual([
      ['Nike', 2, 3],
      ['Adidas', 1, 2],
      ['Hoka', 1, 1],
    ]);
  });

  it('groups cited hosts by registrable domain and marks the brand’s own, subdomains included', () => {
    const sources = [
      { url: 'https://shop.nike.co.kr/running' }, // own: subdomain of nike.co.kr
      { url: 'https://shop.nike.co.kr/running?utm_source=chat' }, // the same URL once utm_* is dropped
      { url: 'https://www.adidas.com/kr' }, // Adidas's
      { url: 'https://nike.com.example.org/' }, // example.org, nobody's
      { url: 'not a url' }, // no host: invalid, not a citation
    ];
    const f = answerFacts({ text: 'Nike', sources }, nike, rivals);
    expect(f.citations.map((c) => [c.domain, c.own, c.owner])).toEqual([
      ['nike.co.kr', true, 'Nike'],
      ['adidas.com', false, 'Adidas'],
      ['example.org', false, null],
    ]);
    expect(f.invalidCitations).toBe(1);
  });

  it('credits an overlapping stretch to the longer brand name, and equal spans to the monitored brand', () => {
    const samsung: MonitoredBrand = { name: 'Samsung', aliases: ['Galaxy'], domains: [] };
    const others: CompetitorBrand[] = [
      { name: 'Samsung Pay', aliases: [] },
      { name: 'Galaxy Store', aliases: ['Galaxy'] },
    ];
    // "Samsung Pay" (0) is Samsung Pay's, not Samsung's; "Samsung" (16) is Samsung's; "Galaxy" (32) is claimed by
    // both Samsung and Galaxy Store with the same span, so it goes to Samsung, listed first.
    const f = answerFacts({ text: 'Samsung Pay and Samsung phones: Galaxy', sources: [] }, samsung, others);
    expect(f.brands.map((b) => [b.name, b.mentions.map((m) => m.start)])).toEqual([
      ['Samsung', [16, 32]],
      ['Samsung Pay', [0]],
      ['Galaxy Store', []],
    ]);
    expect(f.firstMention?.position).toBe(2);
  });

  it('has no text and no mention for a blank answer', () => {
    const f = answerFacts({ text: ' \n ', sources: [{ url: 'https://www.nike.co.kr/' }] }, nike, rivals);
    expect([f.hasText, f.mentioned, f.firstMention]).toEqual([false, false, null]);
  });
});

describe('worked example in English (§6.5)', () => {
  const nike: MonitoredBrand = { name: 'Nike', aliases: ['Nike Inc'], domains: ['nike.com'] };
  const rivals: CompetitorBrand[] = [
    { name: 'Adidas', aliases: ['adidas AG'], domains: ['adidas.com'] },
    { name: 'Hoka', aliases: [] },
  ];
  const tasks: RunAnswer[] = [
    // E1: Nike ×2 (0, "Nike's"), Adidas ×1; Nike first → position 1, offset 0 / 59.
    answered(
      "Nike and Adidas lead the market. Nike's Pegasus is popular.",
      'https://www.nike.com/running',
      'https://about.nike.com/en',
      'https://www.runnersworld.com/best',
    ),
    // E2: Hoka ×1; "Nikesh" is not Nike → the brand is not mentioned.
    answered(
      'Hoka is a good pick; Nikesh Patel reviewed it.',
      'https://www.runnersworld.com/hoka',
      'https://www.adidas.com/us',
    ),
    // E3: Hoka (20) then NIKE (28) → position 2, offset 28 / 33; the two nike.com URLs are one after utm_ is dropped.
    answered(
      'For trail runs, try Hoka or NIKE.',
      'https://www.nike.com/trail?utm_source=x',
      'https://www.nike.com/trail',
      'https://www.outdoorgearlab.com/',
    ),
    // E4: Adidas (0), Hoka (8), "Nike Inc" (18, one mention) → position 3, offset 18 / 42; nikeshoes.example.com is
    // example.com, not Nike's.
    answered(
      'Adidas, Hoka, and Nike Inc all make shoes.',
      'https://nikeshoes.example.com/',
      'https://www.outdoorgearlab.com/x',
    ),
    // E5 failed, E6 answered without a text: both left out.
    { status: 'failed' },
    answered('', 'https://www.nike.com/'),
  ];
  const m = visibilityMetrics(tasks, nike, rivals, { top: 4 });

  it('counts what the figures rest on', () => {
    expect(m.counts).toEqual({
      tasks: 6,
      failed: 1,
      empty: 1,
      answers: 4,
      mentioningAnswers: 3, // E1, E3, E4
      mentions: 4, // 2 + 1 + 1
      allBrandMentions: 9, // Nike 4, Adidas 2 (E1, E4), Hoka 3 (E2, E3, E4)
      brandAnswerPairs: 8, // Nike 3 + Adidas 2 + Hoka 3 answers
      citations: 9, // 3 + 2 + 2 (duplicate dropped) + 2; E6's source is not counted
      ownCitations: 3, // www.nike.com, about.nike.com (E1), www.nike.com (E3)
      invalidCitations: 0,
      prompts: 4, // without prompts, each answer stands alone
      effectiveAnswers: 4,
      // These answers say neither whether they searched nor what they read (§6.9).
      searchKnown: 0,
      searchedAnswers: 0,
      retrievalKnown: 0,
    });
    expect(m.methodVersion).toBe(VISIBILITY_METHOD_VERSION);
  });

  it('gives the intervals computed by hand (§6.5)', () => {
    expect(m.intervals.level).toBe(0.95);
    // One answer per prompt: plain Wilson on 3 of 4.
    expect(m.intervals.mentionRate).toEqual(wilsonInterval(3, 4));
    expect(m.intervals.mentionRate).toEqual({ low: 0.3006, high: 0.9544 });
    // Own citations per answer (E1 2 of 3, E2 0 of 2, E3 1 of 2, E4 0 of 2), p = 1/3: Σ(yᵢ − p·nᵢ)² = 1 + 4/9 + 1/9
    // + 4/9 = 2; cluster-robust variance 4/3 · 2 / 81 = 0.032922 over p(1−p)/9 = 0.024691: design effect 4/3, so
    // Wilson on 9 / (4/3) = 6.75 citations.
    expect(m.intervals.ownCitationShare).toEqual(wilsonInterval(6.75 / 3, 6.75));
    expect(m.brands[0]?.intervals.citationShare).toEqual(m.intervals.ownCitationShare);
    expect(m.intervals.shareOfVoice).toEqual(m.brands[0]?.intervals.shareOfVoice);
    const sov = m.intervals.shareOfVoice;
    expect(sov && sov.low <= 0.375 && 0.375 <= sov.high).toBe(true);
  });

  it('gives the figures computed by hand', () => {
    expect(m.mentionRate).toBe(0.75); // 3 / 4
    expect(m.avgFirstMentionPosition).toBe(2); // (1 + 2 + 3) / 3
    expect(m.avgFirstMentionOffset).toBe(0.4257); // (0/59 + 28/33 + 18/42) / 3 = (0 + 0.84848 + 0.42857) / 3
    expect(m.shareOfVoice).toBe(0.375); // 3 / 8 per answer; per mention it would be 4 / 9 = 0.4444
    expect(m.ownCitationShare).toBe(0.3333); // 3 / 9
  });

  it('gives the competitors the same figures', () => {
    expect(m.brands.map((b) => [b.name, b.mentionRate, b.shareOfVoice, b.avgFirstMentionPosition])).toEqual([
      ['Nike', 0.75, 0.375, 2],
      ['Adidas', 0.5, 0.25, 1.5], // E1 position 2, E4 position 1
      ['Hoka', 0.75, 0.375, 1.3333], // E2 1, E3 1, E4 2 → 4 / 3
    ]);
  });

  it('lists the top domains with ties broken by name', () => {
    // nike.com 3; outdoorgearlab.com and runnersworld.com 2 each (o < r); adidas.com and example.com 1 each, and the
    // cut at 4 keeps adidas.com (a < e).
    expect(m.topCitedDomains).toMatchObject([
      { domain: 'nike.com', citations: 3, share: 0.3333, answers: 2, owner: 'Nike' },
      { domain: 'outdoorgearlab.com', citations: 2, share: 0.2222, answers: 2, owner: null },
      { domain: 'runnersworld.com', citations: 2, share: 0.2222, answers: 2, owner: null },
      { domain: 'adidas.com', citations: 1, share: 0.1111, answers: 1, owner: 'Adidas' },
    ]);
  });
});

describe('worked example in Korean (§6.5)', () => {
  const samsung: MonitoredBrand = {
    name: '삼성전자',
    aliases: ['삼성', 'Samsung Electronics', 'Samsung'],
    domains: ['samsung.com'],
  };
  const rivals: CompetitorBrand[] = [
    { name: 'LG전자', aliases: ['LG', 'LG Electronics'], domains: ['lge.co.kr', 'lg.com'] },
    { name: '애플', aliases: ['Apple'], domains: ['apple.com'] },
  ];
  const tasks: RunAnswer[] = [
    // K1: 삼성전자는 (0), LG전자의 → 삼성전자 position 1, offset 0.
    answered(
      '삼성전자는 갤럭시 S24를 출시했고, LG전자의 그램도 인기가 많습니다.',
      'https://www.samsung.com/sec/',
      'https://news.samsung.com/kr/x',
      'https://blog.naver.com/abc/123',
    ),
    // K2: 삼성전자서비스 is another company → not mentioned; 애플도 ×1.
    answered(
      '삼성전자서비스 센터에서 수리를 받을 수 있습니다. 애플도 비슷합니다.',
      'https://www.samsungsvc.co.kr/',
      'https://m.blog.naver.com/x/1',
    ),
    // K3: LG전자가 (0), 삼성전자에서 (11), Samsung (27) → 삼성전자 ×2, position 2, offset 11 / 43.
    answered(
      'LG전자가 1위이고 삼성전자에서 만든 제품과 Samsung 태블릿도 좋습니다.',
      'https://www.lge.co.kr/tv',
      'https://shop.samsung.com/kr',
    ),
    // K4: 애플과 (0), 삼성을 (4), 애플이, LG는 → 애플 ×2, 삼성전자 ×1 position 2, LG전자 position 3; offset 4 / 34.
    answered(
      '애플과 삼성을 비교하면 애플이 더 비싸고, LG는 중간입니다.',
      'https://www.apple.com/kr/',
      'https://www.samsung.com/sec/',
    ),
    // K5: LG는 only.
    answered('LG는 OLED TV로 유명합니다.', 'https://www.lg.com/global', 'https://namu.wiki/w/LG'),
    { status: 'failed' },
  ];
  const m = visibilityMetrics(tasks, samsung, rivals, { top: 3 });

  it('reads particles and refuses the compound, answer by answer', () => {
    const positions = tasks.flatMap((t) =>
      t.status === 'answered' ? [answerFacts(t.answer, samsung, rivals).firstMention?.position ?? null] : [],
    );
    expect(positions).toEqual([1, null, 2, 2, null]);
  });

  it('gives the figures computed by hand', () => {
    expect(m.counts).toMatchObject({
      tasks: 6,
      failed: 1,
      empty: 0,
      answers: 5,
      mentioningAnswers: 3, // K1, K3, K4
      mentions: 4, // 1 + 2 + 1
      allBrandMentions: 11, // 삼성전자 4, LG전자 4 (K1, K3, K4, K5), 애플 3 (K2, K4 ×2)
      brandAnswerPairs: 9, // 3 + 4 + 2
      citations: 11, // 3 + 2 + 2 + 2 + 2
      ownCitations: 4, // www, news (K1), shop (K3), www (K4) .samsung.com
    });
    expect(m.mentionRate).toBe(0.6); // 3 / 5
    expect(m.avgFirstMentionPosition).toBe(1.6667); // (1 + 2 + 2) / 3
    expect(m.avgFirstMentionOffset).toBe(0.1245); // (0 + 11/43 + 4/34) / 3 = (0.25581 + 0.11765) / 3
    expect(m.shareOfVoice).toBe(0.3333); // 3 / 9
    expect(m.ownCitationShare).toBe(0.3636); // 4 / 11
    expect(m.brands.map((b) => [b.name, b.mentionRate, b.shareOfVoice, b.citationShare])).toEqual([
      ['삼성전자', 0.6, 0.3333, 0.3636],
      ['LG전자', 0.8, 0.4444, 0.1818], // 4 / 5, 4 / 9, lge.co.kr + lg.com = 2 / 11
      ['애플', 0.4, 0.2222, 0.0909], // 2 / 5, 2 / 9, 1 / 11
    ]);
  });

  it('lists the top domains, five tied at one citation cut by name', () => {
    // samsung.com 4, naver.com 2 (blog. and m.blog.), then five with 1:
    // apple.com < lg.com < lge.co.kr < namu.wiki < samsungsvc.co.kr.
    expect(m.topCitedDomains).toMatchObject([
      { domain: 'samsung.com', citations: 4, share: 0.3636, answers: 3, owner: '삼성전자' },
      { domain: 'naver.com', citations: 2, share: 0.1818, answers: 2, owner: null },
      { domain: 'apple.com', citations: 1, share: 0.0909, answers: 1, owner: '애플' },
    ]);
  });
});

describe('edge cases of the figures (§6.3)', () => {
  const brand: MonitoredBrand = { name: 'Nike', aliases: [], domains: ['nike.com'] };

  it('has no figures, only counts, when every task failed', () => {
    const m = visibilityMetrics([{ status: 'failed' }, { status: 'failed' }], brand);
    expect([m.mentionRate, m.avgFirstMentionPosition, m.shareOfVoice, m.ownCitationShare]).toEqual([
      null,
      null,
      null,
      null,
    ]);
    expect(m.counts).toMatchObject({ tasks: 2, failed: 2, answers: 0 });
    expect(m.topCitedDomains).toEqual([]);
    expect(m.brands.map((b) => b.name)).toEqual(['Nike']);
  });

  it('has a mention rate of 0 but no position when answers never name the brand', () => {
    const m = visibilityMetrics([answered('Adidas is fine.'), answered('Hoka too.')], brand, [
      { name: 'Adidas', aliases: [] },
    ]);
    expect(m.mentionRate).toBe(0);
    expect(m.avgFirstMentionPosition).toBeNull();
    expect(m.shareOfVoice).toBe(0); // 0 / 1 (Adidas in one answer)
    expect(m.ownCitationShare).toBeNull(); // no citations
  });

  it('counts a brand once per answer for the share of voice, however often it repeats', () => {
    const m = visibilityMetrics([answered('Nike, Nike, Nike, Nike and Adidas.'), answered('Adidas only.')], brand, [
      { name: 'Adidas', aliases: [] },
    ]);
    // Per answer: Nike 1, Adidas 2 → 1 / 3. Per mention it would be 4 / 6.
    expect(m.shareOfVoice).toBe(0.3333);
    expect([m.counts.mentions, m.counts.allBrandMentions]).toEqual([4, 6]);
  });
});
