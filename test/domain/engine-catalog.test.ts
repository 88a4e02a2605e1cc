import { describe, expect, it } from 'vitest';
import {
  ACCEPTED_TASK_TYPE_NAMES,
  ALL_TASK_TYPES,
  ENGINE_CATALOG,
  ENGINE_TASK_TYPES,
  canonicalTaskType,
  isAnalysisTaskType,
  type AddressRule,
  type CatalogRow,
} from '../../src/domain/engine-catalog.js';

const COMMON_KEYS = ['aliases', 'browser', 'credits', 'defaultCountry', 'kind', 'readsClientUrls', 'regionBound'];
const KEYS_BY_KIND: Record<string, string[]> = {
  engine: [...COMMON_KEYS, 'actions', 'address', 'answers', 'includeFlags', 'pages'].sort(),
  analysis: [...COMMON_KEYS, 'endpoint', 'monitors'].sort(),
};
const INCLUDE_FLAGS = ['markdown', 'rawResponse', 'html', 'artifacts'];

function checkRule(where: string, rule: AddressRule): void {
  expect(rule.anyOf.length, where).toBeGreaterThan(0);
  for (const m of rule.anyOf) expect(['prompt', 'query', 'url', 'user'], where).toContain(m);
  expect(rule.problem.field, where).toMatch(/^payload\.[a-z]+$/);
  expect(rule.problem.message.length, where).toBeGreaterThan(0);
}

describe('engine catalog', () => {
  it('has one row per task type, each with every fact of its kind and nothing else', () => {
    expect(ALL_TASK_TYPES.length).toBe(15);
    for (const t of ALL_TASK_TYPES) {
      const row: CatalogRow = ENGINE_CATALOG[t];
      // `surfaces` is set only on the engines that have two (docs/contract.md#surfaces).
      const keys = Object.keys(row).filter((k) => k !== 'surfaces');
      expect(keys.sort(), t).toEqual(KEYS_BY_KIND[row.kind]);
      if ('surfaces' in row) expect(['CHATBOT_A', 'ANSWER_ENGINE_A'], t).toContain(t);
      for (const [k, v] of Object.entries(row)) expect(v, `${t}.${k}`).not.toBeUndefined();
      expect([1, 2, 3], t).toContain(row.credits);
      if (row.defaultCountry !== null) expect(row.defaultCountry, t).toMatch(/^[A-Z]{2}$/);
      // A region-bound engine is checked against a country before queueing: it must always have one.
      if (row.regionBound) expect(row.defaultCountry, t).not.toBeNull();
      if (row.kind === 'engine') {
        for (const f of row.includeFlags) expect(INCLUDE_FLAGS, t).toContain(f);
        if (row.pages) expect(1 <= row.pages.first && row.pages.first <= row.pages.last, t).toBe(true);
        checkRule(`${t}.address`, row.address);
        for (const [action, rule] of Object.entries(row.actions)) if (rule) checkRule(`${t}.actions.${action}`, rule);
      } else {
        expect(row.endpoint, t).toMatch(/^POST \/v1\/[a-z-]+$/);
      }
    }
  });

  it('is frozen to its leaves', () => {
    expect(Object.isFrozen(ENGINE_CATALOG)).toBe(true);
    const forum = ENGINE_CATALOG.FORUM;
    const { aliases, includeFlags, actions, address } = forum;
    const leaves = [forum, aliases, includeFlags, actions, actions.read, address.anyOf, address.problem];
    for (const v of leaves) expect(Object.isFrozen(v)).toBe(true);
    expect(() => (ENGINE_CATALOG.CHATBOT_A.includeFlags as unknown as string[]).push('x')).toThrow(TypeError);
    expect(() => Object.assign(ENGINE_CATALOG.CHATBOT_A, { credits: 1 })).toThrow(TypeError);
  });

  it('has unique names: no alias repeats or shadows a canonical name', () => {
    const names = ALL_TASK_TYPES.flatMap((t) => [t, ...ENGINE_CATALOG[t].aliases]);
    expect(new Set(names).size).toBe(names.length);
    expect([...ACCEPTED_TASK_TYPE_NAMES].sort()).toEqual([...names].sort());
    expect(ACCEPTED_TASK_TYPE_NAMES.slice(0, ALL_TASK_TYPES.length)).toEqual([...ALL_TASK_TYPES]);
  });

  it('resolves each canonical name and alias to its own row, and nothing else', () => {
    for (const t of ALL_TASK_TYPES) {
      expect(canonicalTaskType(t)).toBe(t);
      for (const a of ENGINE_CATALOG[t].aliases) expect(canonicalTaskType(a), a).toBe(t);
    }
    expect(canonicalTaskType('SEARCH_B')).toBe('SEARCH_B_AI_BRIEF');
    expect(canonicalTaskType('CITATION_ATTRIBUTION')).toBe('SOURCE_INFLUENCE');
    for (const n of ['chatbot_a', 'CHATBOT_B', '', 'toString', '__proto__']) {
      expect(canonicalTaskType(n), n).toBeUndefined();
    }
  });

  it('splits engine and analysis task types by row kind', () => {
    expect(ENGINE_TASK_TYPES.length).toBe(13);
    for (const t of ALL_TASK_TYPES) expect(isAnalysisTaskType(t), t).toBe(!ENGINE_TASK_TYPES.includes(t as never));
    expect(ALL_TASK_TYPES.filter(isAnalysisTaskType)).toEqual(['SOURCE_INFLUENCE', 'PROMPT_RESEARCH']);
  });

  it('lists as monitor engines only engine spellings, with every alias of each listed engine', () => {
    const { engines, byDefault } = ENGINE_CATALOG.PROMPT_RESEARCH.monitors;
    expect(ENGINE_CATALOG.SOURCE_INFLUENCE.monitors.engines).toEqual([]);
    expect(new Set(engines).size).toBe(engines.length);
    const canonical = new Set(engines.map((e) => canonicalTaskType(e)));
    for (const e of engines) {
      const t = canonicalTaskType(e);
      expect(t && !isAnalysisTaskType(t), e).toBe(true);
    }
    for (const t of canonical) for (const a of t ? ENGINE_CATALOG[t].aliases : []) expect(engines, a).toContain(a);
    for (const d of byDefault) expect(engines).toContain(d);
  });
});
