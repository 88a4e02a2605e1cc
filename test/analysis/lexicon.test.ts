import { describe, expect, it } from 'vitest';
import { KO_SYNONYMS } from '../../src/analysis/text/lexicon/korean-tables.js';
import {
  antonyms,
  canonical,
  canonicalPhrases,
  lemma,
  lexiconConflicts,
  lexiconSizes,
  negationCues,
} from '../../src/analysis/text/lexicon/index.js';

const ko = (w: string): string => canonical(lemma(w, 'ko'), 'ko');
const en = (w: string): string => canonical(lemma(w, 'en'), 'en');

describe('lemma (Korean)', () => {
  it.each([
    ['만족했다', '만족'],
    ['만족', '만족'],
    ['많았다', '많'],
    ['많', '많'],
    ['혼인했습니다', '혼인'],
    ['결혼한', '결혼'],
    ['붙지', '붙'],
    ['없이', '없'],
    ['사용하는', '사용'],
    ['증가한', '증가'],
    ['갔다', '가'],
    ['학교에서는', '학교'],
    ['세금이', '세금'],
    ['먹었다', '먹'],
    ['먹는다', '먹'],
    ['간다', '가'],
    ['갑니다', '가'],
    ['만듭니다', '만들'],
    ['만든', '만들'],
    ['올랐다', '오르'],
    ['빨라서', '빠르'],
    ['어려운', '어렵'],
    ['어려워서', '어렵'],
    ['배운', '배우'],
    ['왔다', '오'],
    ['썼습니다', '쓰'],
    ['의사였다', '의사'],
    ['학생이다', '학생'],
    ['작은', '작'],
    ['늘어났다', '늘어나'],
    ['개시되었습니다', '개시'],
    ['만족스러운', '만족'],
    ['불편함이', '불편'],
    ['사용할', '사용'],
    ['정확히', '정확'],
    ['품질이', '품질'],
    ['의사들은', '의사'],
    ['높였다', '높이'],
    ['온라인으로', '온라인'],
    ['것이', '것'],
    ['차가', '차'],
    ['출시하여', '출시'],
    ['달라요', '다르'],
  ])('%s → %s', (word, want) => {
    expect(lemma(word, 'ko')).toBe(want);
  });

  it('leaves nouns whose last syllable looks like an ending alone', () => {
    const nouns = [
      '회의',
      '증가',
      '확인',
      '포함',
      '제한',
      '서울',
      '사진',
      '광고',
      '바다',
      '사과',
      '효과',
      '결과',
      '나이',
    ];
    for (const w of [...nouns, '디자인', '주가', '이자', '재난', '품질']) {
      expect(lemma(w, 'ko')).toBe(w);
    }
  });
});

describe('lemma (English)', () => {
  it('stems with Porter2 after mapping irregular forms', () => {
    expect(lemma('Increased', 'en')).toBe('increas');
    expect(lemma('purchases', 'en')).toBe('purchas');
    expect(lemma('won', 'en')).toBe(lemma('win', 'en'));
    expect(lemma('bought', 'en')).toBe('buy');
    expect(lemma('"cars,"', 'en')).toBe('car');
    expect(lemma("company's", 'en')).toBe(lemma('company', 'en'));
  });

  it('never returns the empty string', () => {
    for (const w of ['', '.', '은', '는', '하', '다', 'a', "'s", '2024', '…', '했다', '이다', '된다']) {
      expect(lemma(w, 'ko')).not.toBe('');
      expect(lemma(w, 'en')).not.toBe('');
    }
  });
});

describe('canonical', () => {
  it('joins Korean synonyms across Sino-Korean and native words and inflections', () => {
    expect(ko('혼인했습니다')).toBe(ko('결혼한'));
    expect(ko('구매했다')).toBe(ko('샀다'));
    expect(ko('이용하면')).toBe(ko('썼다'));
    expect(ko('늘어났다')).toBe(ko('증가'));
    expect(ko('상승한')).toBe(ko('증가했다'));
    expect(ko('개시되었습니다')).toBe(ko('시작'));
  });

  it('joins English synonyms by their Porter2 stems', () => {
    expect(en('buy')).toBe(en('purchased'));
    expect(en('bought')).toBe(en('purchase'));
    expect(en('began')).toBe(en('starting'));
    expect(en('automobile')).toBe(en('cars'));
    expect(en('large')).toBe(en('big'));
  });

  it('maps a word with no entry to its lemma', () => {
    expect(canonical('아파트', 'ko')).toBe('아파트');
    expect(canonical(lemma('zebras', 'en'), 'en')).toBe('zebra');
  });

  it('keeps every Korean group member on the group id after lemmatising', () => {
    for (const line of KO_SYNONYMS.trim().split('\n')) {
      const [id, ...rest] = line.trim().split(/\s+/);
      for (const m of rest) expect(ko(m), `${m} in ${line}`).toBe(id);
    }
  });

  it('has no lemma claimed by two groups and the agreed table sizes', () => {
    expect(lexiconConflicts()).toEqual([]);
    const sizes = lexiconSizes();
    expect(sizes.koSynonymGroups).toBeGreaterThanOrEqual(150);
    expect(sizes.koAntonymPairs).toBeGreaterThanOrEqual(60);
    expect(sizes.enSynonymGroups).toBeGreaterThanOrEqual(150);
    expect(sizes.enAntonymPairs).toBeGreaterThanOrEqual(80);
  });
});

describe('antonyms', () => {
  it('links Korean opposites through their canonical ids', () => {
    expect(antonyms(ko('증가했다'), 'ko').has(ko('감소'))).toBe(true);
    expect(antonyms(ko('많았다'), 'ko').has(ko('적다'))).toBe(true);
    expect(antonyms(ko('상승'), 'ko').has(ko('하락했다'))).toBe(true);
    expect(antonyms(ko('포함'), 'ko').has(ko('제외'))).toBe(true);
    expect(antonyms(ko('가능'), 'ko').has(ko('불가능'))).toBe(true);
  });

  it('links English opposites', () => {
    expect(antonyms(en('increase'), 'en').has(en('decrease'))).toBe(true);
    expect(antonyms(en('rose'), 'en').has(en('fell'))).toBe(true);
    expect(antonyms(en('won'), 'en').has(en('lost'))).toBe(true);
    expect(antonyms(en('before'), 'en').has(en('after'))).toBe(true);
    expect(antonyms(en('more'), 'en').has(en('fewer'))).toBe(true);
  });

  it('is empty for a word without antonyms', () => {
    expect(antonyms('아파트', 'ko').size).toBe(0);
    expect(antonyms('zebra', 'en').size).toBe(0);
  });
});

describe('canonicalPhrases', () => {
  it('rewrites Korean paraphrases and keeps the rest', () => {
    expect(canonicalPhrases('세금이 붙지 않는 상품', 'ko')).toBe('비과세 상품');
    expect(canonicalPhrases('이 계좌는 세금을 내지 않아도 됩니다.', 'ko')).toBe('이 계좌는 비과세 됩니다.');
    expect(canonicalPhrases('디자인이 마음에 들었다', 'ko')).toBe('디자인이 만족');
    expect(canonicalPhrases('디자인이 마음에 안 들었다', 'ko')).toBe('디자인이 불만');
  });

  it('rewrites English paraphrases case-insensitively at word boundaries', () => {
    expect(canonicalPhrases('The founder gave up control in 2020.', 'en')).toBe(
      'The founder relinquish control in 2020.',
    );
    expect(canonicalPhrases('She is in charge of sales.', 'en')).toBe('She is manage sales.');
    expect(canonicalPhrases('Shipping is free of charge.', 'en')).toBe('Shipping is free.');
    expect(canonicalPhrases('Forgive up front', 'en')).toBe('Forgive up front');
  });

  it('never rewrites across a sentence or line break', () => {
    expect(canonicalPhrases('세금이\n붙지 않는 상품', 'ko')).toBe('세금이\n붙지 않는 상품');
    expect(canonicalPhrases('세금이. 붙지 않는 상품', 'ko')).toBe('세금이. 붙지 않는 상품');
    expect(canonicalPhrases('They gave. Up they went', 'en')).toBe('They gave. Up they went');
    expect(canonicalPhrases('in charge\nof', 'en')).toBe('in charge\nof');
  });
});

describe('negationCues', () => {
  const cues = (clause: string, lang: 'en' | 'ko') => negationCues(clause, lang).map((c) => [c.index, c.cue, c.kind]);

  it('finds Korean syntactic negation and where it points', () => {
    expect(cues('불편함없이 만족했다', 'ko')).toContainEqual([0, '없이', 'syntactic']);
    expect(cues('가지 않았다', 'ko')).toEqual([[0, '-지 않', 'syntactic']]);
    expect(cues('못 갔다', 'ko')).toEqual([[1, '못', 'syntactic']]);
    expect(cues('안 갔다', 'ko')).toEqual([[1, '안', 'syntactic']]);
    expect(cues('사과가 아니다', 'ko')).toEqual([[0, '아니다', 'syntactic']]);
    expect(cues('제대로 가지 못했다', 'ko')).toEqual([[1, '-지 못하', 'syntactic']]);
    expect(cues('문제가 없었다', 'ko')).toEqual([[0, '없었다', 'syntactic']]);
    expect(cues('거기에 가지 마세요', 'ko')).toEqual([[1, '-지 말', 'syntactic']]);
    expect(cues('배송이 안됐다', 'ko')).toEqual([[1, '안', 'syntactic']]);
  });

  it('reports listed 불/비/무/미 words as lexical and leaves other words alone', () => {
    expect(cues('비과세 상품', 'ko')).toEqual([[0, '비', 'lexical']]);
    expect(cues('배송은 무료로 제공된다', 'ko')).toEqual([[1, '무', 'lexical']]);
    expect(cues('사실상 불가능하다', 'ko')).toEqual([[1, '불', 'lexical']]);
    expect(cues('미완성 상태', 'ko')).toEqual([[0, '미', 'lexical']]);
    expect(cues('비행기 무게 미국 불고기 안내 없애다', 'ko')).toEqual([]);
    expect(cues('불편함이 많았다', 'ko').filter((c) => c[2] === 'syntactic')).toEqual([]);
  });

  it('finds English negation and points at the negated word', () => {
    expect(cues('He did not win', 'en')).toEqual([[3, 'not', 'syntactic']]);
    expect(cues('It never rained', 'en')).toEqual([[2, 'never', 'syntactic']]);
    expect(cues("They didn't pay", 'en')).toEqual([[2, "n't", 'syntactic']]);
    expect(cues('The plan failed to pass', 'en')).toEqual([[4, 'fail to', 'syntactic']]);
    expect(cues('It lacks support', 'en')).toEqual([[2, 'lacks', 'syntactic']]);
    expect(cues('No fees apply', 'en')).toEqual([[1, 'no', 'syntactic']]);
    expect(cues('It is not only cheap', 'en')).toEqual([]);
    expect(cues('That is impossible', 'en')).toEqual([[2, 'im', 'lexical']]);
  });
});

describe('speed', () => {
  it('lemmatises uncached words in a few microseconds', () => {
    const words: string[] = [];
    for (let i = 0; i < 20_000; i++) words.push(`가나${String.fromCharCode(0xac00 + (i % 11000))}했습니다`);
    const t0 = performance.now();
    for (const w of words) lemma(w, 'ko');
    const perWord = ((performance.now() - t0) * 1000) / words.length;
    expect(perWord).toBeLessThan(20);
  });
});
