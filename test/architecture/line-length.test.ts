import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

const ROOT = path.resolve(import.meta.dirname, '../..');
const FOLDERS = ['src', 'test', 'bench', 'web'];
const MAX_LINE = 120;

/**
 * Lines that may run past the limit. A URL cannot be broken without making it harder to copy, so a line holding
 * one is exempt. Nothing else is: the simulator's pages and the tests' inline HTML are split at tag boundaries.
 */
const EXEMPT = /https?:\/\//;

interface LongLine {
  file: string;
  line: number;
  length: number;
}

function typeScriptFiles(dir: string): string[] {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) return entry.name === 'node_modules' ? [] : typeScriptFiles(full);
    return entry.name.endsWith('.ts') ? [full] : [];
  });
}

/** The lines of `text` over the limit that no exemption covers, numbered from 1. */
function longLines(file: string, text: string): LongLine[] {
  return text
    .split('\n')
    .flatMap((line, i) =>
      line.length > MAX_LINE && !EXEMPT.test(line) ? [{ file, line: i + 1, length: line.length }] : [],
    );
}

describe('line length: no line over 120 characters unless it holds a URL', () => {
  const files = FOLDERS.flatMap((folder) => typeScriptFiles(path.join(ROOT, folder)));

  it('finds the TypeScript files of src/, test/, bench/ and web/', () => {
    // A scan that read nothing would pass the rule below.
    expect(files.length).toBeGreaterThan(300);
    expect(files).toContain(path.join(ROOT, 'test/architecture/line-length.test.ts'));
    expect(files).toContain(path.join(ROOT, 'web/dashboard/src/main.ts'));
  });

  it('flags a line of 121 characters and exempts one that holds a URL', () => {
    const long = `const x = '${'a'.repeat(MAX_LINE - 12)}';`;
    expect(long).toHaveLength(MAX_LINE + 1);
    expect(longLines('x.ts', `ok\n${long}\n`)).toEqual([{ file: 'x.ts', line: 2, length: MAX_LINE + 1 }]);
    expect(longLines('x.ts', `${long} // https://example.com/`)).toEqual([]);
    expect(longLines('x.ts', 'a'.repeat(MAX_LINE))).toEqual([]);
  });

  it('has no line over 120 characters in src/, test/, bench/ or web/', () => {
    const found = files.flatMap((file) =>
      longLines(path.relative(ROOT, file), fs.readFileSync(file, 'utf8')).map(
        (l) => `${l.file}:${l.line} (${l.length} characters)`,
      ),
    );
    expect(found).toEqual([]);
  });
});
