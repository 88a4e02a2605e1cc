import type { ENGINE_CATALOG } from './engine-catalog.js';

/**
 * Task type names as types. The names and every fact about them are the rows of the engine catalog
 * (engine-catalog.ts); these types follow from its keys and each row's `kind`.
 */
type Rows = typeof ENGINE_CATALOG;

export type TaskType = keyof Rows;
export type EngineTaskType = { [K in TaskType]: Rows[K]['kind'] extends 'engine' ? K : never }[TaskType];
export type AnalysisTaskType = Exclude<TaskType, EngineTaskType>;
