import { SingleBar } from 'cli-progress';

/** A study's tasks by where they are; `failed` counts every task that did not complete (failed, refused, gone). */
export interface StudyCounts {
  total: number;
  submitted: number;
  queued: number;
  processing: number;
  completed: number;
  failed: number;
}

export interface ProgressView {
  update(c: StudyCounts): void;
  /** The last state, then the view lets go of the terminal. */
  stop(c: StudyCounts): void;
  /** Lets go of the terminal without a last state (the run failed; its error is what the reader needs). */
  abandon(): void;
}

/**
 * Progress on `stream`: a live bar on a terminal (cli-progress redraws one line), or on a pipe or file a plain line
 * every `everyMs` and one at the end. Rate and ETA count only what ends during this run, so a resumed study's
 * earlier results do not inflate them.
 */
export function progressView(stream: NodeJS.WriteStream, o: { everyMs: number }): ProgressView {
  const started = Date.now();
  let doneAtStart: number | null = null;
  const figures = (c: StudyCounts) => {
    const done = c.completed + c.failed;
    doneAtStart ??= done;
    const seconds = (Date.now() - started) / 1000;
    const rate = seconds > 0 ? (done - doneAtStart) / seconds : 0;
    const eta = done >= c.total ? '0s' : rate > 0 ? duration((c.total - done) / rate) : '?';
    return { ...c, done, rate: rate.toFixed(1), eta };
  };
  const line = (c: StudyCounts) => {
    const f = figures(c);
    return (
      `${f.done}/${f.total} done | submitted ${f.submitted} | queued ${f.queued} | processing ${f.processing} | ` +
      `completed ${f.completed} | failed ${f.failed} | ${f.rate}/s | ETA ${f.eta}`
    );
  };
  if (stream.isTTY) {
    const bar = new SingleBar({
      stream,
      format: '{bar} {line}',
      barsize: 24,
      barCompleteChar: '█',
      barIncompleteChar: '░',
      hideCursor: true,
      clearOnComplete: false,
      fps: 5,
    });
    let started = false;
    const show = (c: StudyCounts) => {
      const payload = { line: line(c) };
      if (!started) bar.start(c.total, c.completed + c.failed, payload);
      else bar.update(c.completed + c.failed, payload);
      started = true;
    };
    return {
      update: show,
      stop(c) {
        show(c);
        bar.stop();
      },
      abandon: () => bar.stop(),
    };
  }
  let last = 0;
  let lastText = '';
  const print = (c: StudyCounts) => {
    last = Date.now();
    lastText = line(c);
    stream.write(`aeq run: ${lastText}\n`);
  };
  return {
    update(c) {
      if (Date.now() - last >= o.everyMs) print(c);
    },
    stop(c) {
      // The end state once, even when the last periodic line already showed it.
      const counts = line(c).replace(/ \| [0-9.]+\/s .*$/, '');
      if (!lastText.startsWith(counts)) print(c);
    },
    abandon: () => undefined,
  };
}

/** Seconds as `1h02m`, `3m05s` or `42s`. */
export function duration(seconds: number): string {
  const s = Math.max(0, Math.round(seconds));
  if (s >= 3600) return `${Math.floor(s / 3600)}h${String(Math.floor((s % 3600) / 60)).padStart(2, '0')}m`;
  if (s >= 60) return `${Math.floor(s / 60)}m${String(s % 60).padStart(2, '0')}s`;
  return `${s}s`;
}
