/**
 * Task type names as types, for modules that need only the names. They follow from the keys of the
 * engine catalog (engine-catalog.ts), which holds every fact about each task type.
 */
export type { EngineTaskType, TaskType } from './engine-catalog.js';
