import type { EngineAdapter } from '../../src/engines/adapter.js';
import type { TaskType } from '../../src/domain/task-types.js';

/**
 * An engine adapter whose attempts all wait for one gate, then answer at once: attempts that run meanwhile hold their
 * slots, and end together when `open()` is called.
 */
export function gatedAdapter(taskType: TaskType): { adapter: EngineAdapter; open: () => void } {
  let open: () => void = () => undefined;
  const gate = new Promise<void>((r) => {
    open = r;
  });
  const adapter: EngineAdapter = {
    taskType,
    needsAccount: false,
    async run() {
      await gate;
      return { text: 'ok', markdown: 'ok', sources: [], raw: null };
    },
  };
  return { adapter, open: () => open() };
}
