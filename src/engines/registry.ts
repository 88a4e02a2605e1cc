import type { TaskType } from '../domain/task-types.js';
import type { EngineAdapter } from './adapter.js';

/** Adapters by canonical task type. */
export class EngineRegistry {
  private readonly adapters = new Map<TaskType, EngineAdapter>();

  register(adapter: EngineAdapter): this {
    this.adapters.set(adapter.taskType, adapter);
    return this;
  }

  get(t: TaskType): EngineAdapter | undefined {
    return this.adapters.get(t);
  }

  types(): TaskType[] {
    return [...this.adapters.keys()];
  }
}
