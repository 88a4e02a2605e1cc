/**
 * The task types of the contract, their aliases, and which endpoint creates them.
 * Canonical names are echoed in every response; aliases are accepted on input only.
 */
export const ENGINE_TASK_TYPES = [
  'CHATBOT_A',
  'ANSWER_ENGINE_A',
  'ASSISTANT_A',
  'AIMODE',
  'SEARCH_A',
  'SEARCH_A_SERP',
  'SEARCH_B_AI_BRIEF',
  'SEARCH_B_AI_TAB',
  'SEARCH_B_SERP',
  'SEARCH_C_SEARCH',
  'SEARCH_C_ASSISTANT',
  'FORUM',
  'WEB_SCRAPE',
] as const;

export const ANALYSIS_TASK_TYPES = ['SOURCE_INFLUENCE', 'PROMPT_RESEARCH'] as const;

export type EngineTaskType = (typeof ENGINE_TASK_TYPES)[number];
export type AnalysisTaskType = (typeof ANALYSIS_TASK_TYPES)[number];
export type TaskType = EngineTaskType | AnalysisTaskType;

export const ALL_TASK_TYPES: readonly TaskType[] = [...ENGINE_TASK_TYPES, ...ANALYSIS_TASK_TYPES];

/** Input spellings that map to a canonical name (deprecated or earlier names). */
export const TASK_TYPE_ALIASES: Readonly<Record<string, TaskType>> = Object.freeze({
  SEARCH_A_AIMODE: 'AIMODE',
  SEARCH_A_AIO: 'SEARCH_A',
  SEARCH_B: 'SEARCH_B_AI_BRIEF',
  SEARCH_C: 'SEARCH_C_SEARCH',
  SEARCH_C_ASSISTANT_SEARCH: 'SEARCH_C_SEARCH',
  ASSISTANT_C: 'SEARCH_C_ASSISTANT',
  CITATION_ATTRIBUTION: 'SOURCE_INFLUENCE',
});

/** Every spelling accepted in `taskType` (canonical names first, then aliases). */
export const ACCEPTED_TASK_TYPE_NAMES: readonly string[] = [...ALL_TASK_TYPES, ...Object.keys(TASK_TYPE_ALIASES)];

const canonicalByName = new Map<string, TaskType>([
  ...ALL_TASK_TYPES.map((t) => [t, t] as const),
  ...Object.entries(TASK_TYPE_ALIASES),
]);

export function canonicalTaskType(name: string): TaskType | undefined {
  return canonicalByName.get(name);
}

export function isAnalysisTaskType(t: TaskType): t is AnalysisTaskType {
  return t === 'SOURCE_INFLUENCE' || t === 'PROMPT_RESEARCH';
}

/** Engines whose answer depends on a region-bound account pool: region is checked before queueing. */
export const REGION_BOUND_ENGINES: ReadonlySet<TaskType> = new Set<TaskType>(['CHATBOT_A']);

/** Engines that return their result in a fixed shape but honour some `include` flags. */
export const INCLUDE_FLAGS_BY_ENGINE: Readonly<Partial<Record<TaskType, readonly IncludeFlag[]>>> = Object.freeze({
  CHATBOT_A: ['markdown', 'rawResponse', 'html'],
  ASSISTANT_A: ['markdown', 'rawResponse'],
});

export type IncludeFlag = 'markdown' | 'rawResponse' | 'html';

/** Engines addressed by URL rather than by a prompt or query (decisions.md item 17). */
export const URL_READER_ENGINES: ReadonlySet<TaskType> = new Set<TaskType>(['WEB_SCRAPE', 'FORUM', 'SEARCH_B_SERP']);

/** Engines addressed through `payload.page`. */
export const SERP_ENGINES: ReadonlySet<TaskType> = new Set<TaskType>(['SEARCH_A_SERP', 'SEARCH_B_SERP']);

/** Engine names used by the prompt-research `engines` array (input spellings, aliases allowed). */
export const MONITOR_ENGINE_NAMES = [
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
] as const;
