import type { Reporter, TestModule } from 'vitest/node';

/** How many of the slowest test files the closing lines name. */
const SLOWEST_SHOWN = 12;

/**
 * Prints the plain closing line CI reads ("Tests: N passed, N failed, N skipped") after
 * vitest's own summary, counted over every test case of the run, and the slowest test files
 * (their tests' and hooks' time, by project), so that a CI log shows where the suite's time goes.
 */
export default class SummaryReporter implements Reporter {
  onTestRunEnd(modules: ReadonlyArray<TestModule>): void {
    let passed = 0;
    let failed = 0;
    let skipped = 0;
    for (const m of modules) {
      for (const t of m.children.allTests()) {
        const state = t.result().state;
        if (state === 'passed') passed++;
        else if (state === 'failed') failed++;
        else skipped++;
      }
      if (m.state() === 'failed' && [...m.children.allTests()].length === 0) failed++;
    }
    const slowest = modules
      .map((m) => ({ name: `${m.project.name}: ${m.relativeModuleId}`, ms: m.diagnostic().duration }))
      .sort((a, b) => b.ms - a.ms)
      .slice(0, SLOWEST_SHOWN);
    if (slowest.length > 0) {
      process.stdout.write(`\nSlowest test files (tests and hooks):\n`);
      for (const s of slowest) process.stdout.write(`  ${(s.ms / 1000).toFixed(1).padStart(6)} s  ${s.name}\n`);
    }
    process.stdout.write(`\nTests: ${passed} passed, ${failed} failed, ${skipped} skipped\n`);
  }
}
