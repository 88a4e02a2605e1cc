/**
 * The engine catalog: one frozen row per task type, keyed by its canonical name, holding every fact
 * the service looks up by task type. Alias resolution, payload rules (src/submission), the JSON
 * schemas (src/http/schemas.ts), config defaults (src/config/engine-config.ts), /capacity and the
 * worker all read these rows; no other module keeps a table of these facts. It imports nothing, so
 * every layer can read it.
 */

/**
 * `include` flags a client may set (`TaskPayload.include`); an engine honours those its row lists. `artifacts` keeps
 * the task's evidence (src/domain/artifact.ts): every engine has an upstream payload to keep, and the engines that can
 * load their pages in the browser add the page's HTML and screenshot when they do.
 */
type IncludeFlag = 'markdown' | 'rawResponse' | 'html' | 'artifacts';

/**
 * The two ways an engine with a consumer app can answer (docs/contract.md#surfaces): its provider's API, or the app
 * itself driven in the browser.
 */
export type Surface = 'api' | 'app';
export const SURFACES: readonly Surface[] = ['api', 'app'];

/** Payload members (of `TaskPayload`) that can say what a request is about. */
export type AddressMember = 'prompt' | 'query' | 'url' | 'user';

/**
 * What must be present to address a request: any one of `anyOf` (`prompt` and `query` count only
 * when not blank). When none is, `problem` is the VALIDATION_ERROR detail.
 */
export interface AddressRule {
  readonly anyOf: readonly AddressMember[];
  readonly problem: { readonly field: string; readonly message: string };
}

interface RowFacts {
  /** Other accepted spellings of `taskType` (earlier or deprecated names); responses echo the key. */
  readonly aliases: readonly string[];
  /** Default cost in credits; the config file may override it per engine. */
  readonly credits: 1 | 2 | 3;
  /** Served from region-bound account pools: a country without capacity is refused before queueing. */
  readonly regionBound: boolean;
  /** The country served when the request names none; null: the task has no country. */
  readonly defaultCountry: string | null;
  /** Whether the config may set `transport: "browser"` (the upstream has pages a browser can load). */
  readonly browser: boolean;
  /**
   * Fetches URLs the client chose (the page to read, the pages an answer cites): the transport checks
   * their targets against private addresses after DNS resolution.
   */
  readonly readsClientUrls: boolean;
}

/** A task type created by `POST /v1/async/task` (and batch items). */
export interface EngineRow extends RowFacts {
  readonly kind: 'engine';
  /**
   * The engine writes an answer (a chatbot, an answer engine, an AI search mode): its response carries the answer
   * signals (`searchQueries`, `searchTriggered`, `retrievedSources`, `products`, `ads`, `places`), each null where
   * the engine cannot see it (docs/contract.md#answer-signals).
   */
  readonly answers: boolean;
  /** The `include` flags the engine honours. */
  readonly includeFlags: readonly IncludeFlag[];
  /** The result pages `payload.page` selects; null: the engine ignores `payload.page`. */
  readonly pages: { readonly first: number; readonly last: number } | null;
  /** What addresses a request without `payload.action`. */
  readonly address: AddressRule;
  /**
   * The surfaces `payload.surface` may choose, for an engine that has both an API and an app; absent: one surface, and
   * `payload.surface` is refused.
   */
  readonly surfaces?: readonly Surface[];
  /**
   * The allowed `payload.action` values in documented order, each with what addresses it (null:
   * nothing more). Empty: the engine takes no action.
   */
  readonly actions: Readonly<Record<string, AddressRule | null>>;
}

/** A task type created only through its own endpoint. */
interface AnalysisRow extends RowFacts {
  readonly kind: 'analysis';
  /** The endpoint that creates it; elsewhere it is USE_DEDICATED_ENDPOINT. */
  readonly endpoint: string;
  /**
   * The engines a prompt-research monitor may run (accepted spellings, in the contract's order, which
   * the schema enum and its error message keep) and those it runs by default.
   */
  readonly monitors: { readonly engines: readonly string[]; readonly byDefault: readonly string[] };
}

export type CatalogRow = EngineRow | AnalysisRow;

const TEXT: AddressRule = {
  anyOf: ['prompt', 'query'],
  problem: { field: 'payload.prompt', message: 'payload.prompt or payload.query is required' },
};

/** A forum search: text, or the URL of a post to read. */
const FORUM_TEXT_OR_POST: AddressRule = {
  anyOf: ['prompt', 'query', 'url'],
  problem: {
    field: 'payload.prompt',
    message: 'payload.prompt or payload.query (or payload.url to read a post) is required',
  },
};

function requiredWithAction(action: string, member: AddressMember): AddressRule {
  return { anyOf: [member], problem: { field: `payload.${member}`, message: `is required with action ${action}` } };
}

const NO_PAGES = null;
const TEN_PAGES = { first: 1, last: 10 };
const NO_ACTIONS = {};
const NO_MONITORS = { engines: [], byDefault: [] };

/** Row order is the order of /capacity, the config schema and the accepted `taskType` values. */
const ROWS = {
  CHATBOT_A: {
    kind: 'engine',
    answers: true,
    aliases: [],
    credits: 3,
    regionBound: true,
    defaultCountry: 'US',
    browser: true,
    readsClientUrls: false,
    surfaces: ['api', 'app'],
    includeFlags: ['markdown', 'rawResponse', 'html', 'artifacts'],
    pages: NO_PAGES,
    address: TEXT,
    actions: NO_ACTIONS,
  },
  ANSWER_ENGINE_A: {
    kind: 'engine',
    answers: true,
    aliases: [],
    credits: 2,
    regionBound: false,
    defaultCountry: null,
    browser: true,
    readsClientUrls: false,
    surfaces: ['api', 'app'],
    includeFlags: ['artifacts'],
    pages: NO_PAGES,
    address: TEXT,
    actions: NO_ACTIONS,
  },
  ASSISTANT_A: {
    kind: 'engine',
    answers: true,
    aliases: [],
    credits: 2,
    regionBound: false,
    defaultCountry: null,
    browser: false,
    readsClientUrls: false,
    includeFlags: ['markdown', 'rawResponse', 'artifacts'],
    pages: NO_PAGES,
    address: TEXT,
    actions: NO_ACTIONS,
  },
  AIMODE: {
    kind: 'engine',
    answers: true,
    aliases: ['SEARCH_A_AIMODE'],
    credits: 2,
    regionBound: false,
    defaultCountry: null,
    browser: true,
    readsClientUrls: false,
    includeFlags: ['artifacts'],
    pages: NO_PAGES,
    address: TEXT,
    actions: NO_ACTIONS,
  },
  SEARCH_A: {
    kind: 'engine',
    answers: true,
    aliases: ['SEARCH_A_AIO'],
    credits: 2,
    regionBound: false,
    defaultCountry: null,
    browser: true,
    readsClientUrls: false,
    includeFlags: ['artifacts'],
    pages: NO_PAGES,
    address: TEXT,
    actions: NO_ACTIONS,
  },
  SEARCH_A_SERP: {
    kind: 'engine',
    answers: false,
    aliases: [],
    credits: 1,
    regionBound: false,
    defaultCountry: null,
    browser: true,
    readsClientUrls: false,
    includeFlags: ['artifacts'],
    pages: TEN_PAGES,
    address: TEXT,
    actions: NO_ACTIONS,
  },
  SEARCH_B_AI_BRIEF: {
    kind: 'engine',
    answers: true,
    aliases: ['SEARCH_B'],
    credits: 2,
    regionBound: false,
    defaultCountry: null,
    browser: true,
    readsClientUrls: false,
    includeFlags: ['artifacts'],
    pages: NO_PAGES,
    address: TEXT,
    actions: NO_ACTIONS,
  },
  SEARCH_B_AI_TAB: {
    kind: 'engine',
    answers: true,
    aliases: [],
    credits: 2,
    regionBound: false,
    defaultCountry: null,
    browser: true,
    readsClientUrls: false,
    includeFlags: ['artifacts'],
    pages: NO_PAGES,
    address: TEXT,
    actions: NO_ACTIONS,
  },
  SEARCH_B_SERP: {
    kind: 'engine',
    answers: false,
    aliases: [],
    credits: 1,
    regionBound: false,
    defaultCountry: null,
    browser: false,
    readsClientUrls: false,
    includeFlags: ['artifacts'],
    pages: TEN_PAGES,
    address: TEXT,
    // `page` reads one page of a Naver site (a blog post) by its URL.
    actions: { search: TEXT, page: requiredWithAction('page', 'url') },
  },
  SEARCH_C_SEARCH: {
    kind: 'engine',
    answers: false,
    aliases: ['SEARCH_C', 'SEARCH_C_ASSISTANT_SEARCH'],
    credits: 1,
    regionBound: false,
    defaultCountry: null,
    browser: false,
    readsClientUrls: false,
    includeFlags: ['artifacts'],
    pages: TEN_PAGES,
    address: TEXT,
    actions: NO_ACTIONS,
  },
  SEARCH_C_ASSISTANT: {
    kind: 'engine',
    answers: true,
    aliases: ['ASSISTANT_C'],
    credits: 2,
    regionBound: false,
    defaultCountry: null,
    browser: false,
    readsClientUrls: false,
    includeFlags: ['artifacts'],
    pages: NO_PAGES,
    address: TEXT,
    actions: NO_ACTIONS,
  },
  FORUM: {
    kind: 'engine',
    answers: false,
    aliases: [],
    credits: 1,
    regionBound: false,
    defaultCountry: null,
    browser: false,
    readsClientUrls: false,
    includeFlags: ['artifacts'],
    pages: NO_PAGES,
    address: FORUM_TEXT_OR_POST,
    actions: {
      search: FORUM_TEXT_OR_POST,
      read: requiredWithAction('read', 'url'),
      // The front page, or one community's when `payload.community` is set.
      feed: null,
      user_posts: requiredWithAction('user_posts', 'user'),
    },
  },
  WEB_SCRAPE: {
    kind: 'engine',
    answers: false,
    aliases: [],
    credits: 1,
    regionBound: false,
    defaultCountry: null,
    browser: false,
    readsClientUrls: true,
    includeFlags: ['rawResponse', 'artifacts'],
    pages: NO_PAGES,
    address: {
      anyOf: ['url'],
      problem: { field: 'payload.url', message: 'is required for WEB_SCRAPE (the page to read)' },
    },
    actions: NO_ACTIONS,
  },
  SOURCE_INFLUENCE: {
    kind: 'analysis',
    aliases: ['CITATION_ATTRIBUTION'],
    credits: 3,
    regionBound: false,
    defaultCountry: null,
    browser: false,
    readsClientUrls: true,
    endpoint: 'POST /v1/source-influence',
    monitors: NO_MONITORS,
  },
  PROMPT_RESEARCH: {
    kind: 'analysis',
    aliases: [],
    credits: 3,
    regionBound: false,
    defaultCountry: 'US',
    browser: false,
    readsClientUrls: false,
    endpoint: 'POST /v1/prompt-research',
    monitors: {
      engines: [
        'CHATBOT_A',
        'ASSISTANT_A',
        'ANSWER_ENGINE_A',
        'SEARCH_A',
        'AIMODE',
        'SEARCH_B_AI_BRIEF',
        'SEARCH_B_AI_TAB',
        'SEARCH_B',
        'SEARCH_A_AIO',
        'SEARCH_A_AIMODE',
      ],
      byDefault: ['CHATBOT_A', 'ANSWER_ENGINE_A', 'AIMODE'],
    },
  },
} as const satisfies Record<string, CatalogRow>;

/** Canonical task type names: the catalog's keys. */
export type TaskType = keyof typeof ROWS;
/** Task types created by `POST /v1/async/task`. */
export type EngineTaskType = { [K in TaskType]: (typeof ROWS)[K]['kind'] extends 'engine' ? K : never }[TaskType];
/** Task types created only through their own endpoint. */
export type AnalysisTaskType = Exclude<TaskType, EngineTaskType>;

function deepFreeze<T>(value: T): T {
  if (value && typeof value === 'object') {
    for (const v of Object.values(value)) deepFreeze(v);
    Object.freeze(value);
  }
  return value;
}

/** The catalog, frozen to its leaves. Typed row by row: `ENGINE_CATALOG.PROMPT_RESEARCH.defaultCountry` is `'US'`. */
export const ENGINE_CATALOG = deepFreeze(ROWS);

/** Canonical names in catalog order. */
export const ALL_TASK_TYPES = Object.freeze(Object.keys(ENGINE_CATALOG) as TaskType[]);

/** Task types created by `POST /v1/async/task`. */
export const ENGINE_TASK_TYPES = Object.freeze(
  ALL_TASK_TYPES.filter((t): t is EngineTaskType => ENGINE_CATALOG[t].kind === 'engine'),
);

/** Every spelling accepted in `taskType`: canonical names first, then aliases (row by row). */
export const ACCEPTED_TASK_TYPE_NAMES: readonly string[] = Object.freeze([
  ...ALL_TASK_TYPES,
  ...ALL_TASK_TYPES.flatMap((t) => ENGINE_CATALOG[t].aliases),
]);

const canonicalByName = new Map<string, TaskType>(
  ALL_TASK_TYPES.flatMap((t) => [t, ...ENGINE_CATALOG[t].aliases].map((n) => [n, t] as const)),
);

/** The canonical name of an accepted spelling (exact, case-sensitive), or undefined. */
export function canonicalTaskType(name: string): TaskType | undefined {
  return canonicalByName.get(name);
}

/** The row of an engine task type, typed as such (ENGINE_CATALOG[t] is a union of literal rows). */
export function engineRow(t: EngineTaskType): EngineRow {
  return ENGINE_CATALOG[t];
}

export function isAnalysisTaskType(t: TaskType): t is AnalysisTaskType {
  return ENGINE_CATALOG[t].kind === 'analysis';
}
