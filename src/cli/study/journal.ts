import fs from 'node:fs';
import { InputError } from './input.js';
import { completeLines } from './results-file.js';

/** One submission as the journal keeps it: the batch made (null when none was) and the tasks it gave each key. */
export interface JournalEntry {
  batch: string | null;
  /** When the batch was submitted (ms): a task the service does not know is gone only after the retention. */
  at: number;
  tasks: Array<[key: string, taskId: string]>;
}

/**
 * What a study has submitted, appended after each batch and flushed to disk before the run goes on: a re-run reads
 * it and polls those tasks instead of submitting them again. (A kill between a batch and its line is covered by
 * the idempotency keys: the service answers such items with the task it already has.)
 */
export class Journal {
  private constructor(
    private readonly fd: number,
    readonly entries: JournalEntry[],
  ) {}

  static open(file: string): Journal {
    const entries: JournalEntry[] = [];
    if (fs.existsSync(file)) {
      for (const [i, line] of completeLines(file).split('\n').entries()) {
        if (line === '') continue;
        try {
          entries.push(JSON.parse(line) as JournalEntry);
        } catch {
          throw new InputError(`${file}:${i + 1}: not a journal line; remove the file to start the study afresh`);
        }
      }
    }
    return new Journal(fs.openSync(file, 'a'), entries);
  }

  append(entry: JournalEntry): void {
    fs.writeSync(this.fd, `${JSON.stringify(entry)}\n`);
    fs.fsyncSync(this.fd);
    this.entries.push(entry);
  }

  close(): void {
    fs.closeSync(this.fd);
  }
}
