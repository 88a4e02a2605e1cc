import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

const ROOT = path.resolve(import.meta.dirname, '../..');
const FOLDERS = ['src', 'test', 'bench', 'web'];
const MAX_LINE = 120;

/**
 * Lines that may run past the limit. A URL cannot be broken without making it harder to copy, so a line holding
 * one is exempt; so is a line of SQL in a template literal (tagged `sql`, or whose text opens with a statement's
 * keyword), so that a statement is written whole, one clause a line, never glued from pieces with `+` to fit.
 * Nothing else is: the simulator's pages and the tests' inline HTML are split at tag boundaries.
 */
const EXEMPT = /https?:\/\//;
const SQL_START = /^\s*(select|insert|update|delete|with|create|alter|drop|pragma)\b/i;

/**
 * The line numbers (from 1) of `text` that hold part of an SQL template literal. A small scanner of template
 * literals, their `${…}` substitutions (nested literals included) and the strings and comments around them.
 */
function sqlLines(text: string): Set<number> {
  const lines = new Set<number>();
  let line = 1;
  let i = 0;
  const skipQuoted = (q: string) => {
    for (i++; i < text.length && text[i] !== q; i++) {
      if (text[i] === '\\') i++;
      if (text[i] === '\n') line++;
    }
    i++;
  };
  /** From just past a backtick to just past its closing one; true when its text reads as SQL. */
  const template = (tagged: boolean): void => {
    const start = line;
    const head = text.slice(i, i + 40);
    let depth = 0;
    for (; i < text.length; i++) {
      const c = text[i];
      if (c === '\n') line++;
      else if (c === '\\') i++;
      else if (depth === 0 && c === '`') break;
      else if (c === '$' && text[i + 1] === '{') {
        depth++;
        i++;
      } else if (depth > 0 && c === '}') depth--;
      else if (depth > 0 && c === '`') {
        i++;
        template(text.slice(Math.max(0, i - 4), i - 1) === 'sql');
      } else if (depth > 0 && (c === "'" || c === '"')) {
        skipQuoted(c);
        i--;
      }
    }
    i++;
    if (tagged || SQL_START.test(head)) for (let n = start; n <= line; n++) lines.add(n);
  };
  while (i < text.length) {
    const c = text[i];
    if (c === '\n') {
      line++;
      i++;
    } else if (c === '/' && text[i + 1] === '/') while (i < text.length && text[i] !== '\n') i++;
    else if (c === '/' && text[i + 1] === '*') {
      const end = text.indexOf('*/', i + 2);
      const stop = end < 0 ? text.length : end + 2;
      for (; i < stop; i++) if (text[i] === '\n') line++;
    } else if (c === "'" || c === '"') skipQuoted(c);
    else if (c === '`') {
      const tagged = /\bsql$/.test(text.slice(Math.max(0, i - 4), i));
      i++;
      template(tagged);
    } else i++;
  }
  return lines;
}

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
  const sql = sqlLines(text);
  return text
    .split('\n')
    .flatMap((line, i) =>
      line.length > MAX_LINE && !EXEMPT.test(line) && !sql.has(i + 1)
        ? [{ file, line: i + 1, length: line.length }]
        : [],
    );
}

describe('line length: no line over 120 characters unless it holds a URL or SQL', () => {
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

  it('exempts the lines of an SQL template literal, and of no other literal', () => {
    const wide = 'x'.repeat(MAX_LINE);
    const statement = `const q = \`\n  select a\n  from t\n  where b = '${wide}'\n\`;\n`;
    expect(longLines('x.ts', statement)).toEqual([]);
    expect(longLines('x.ts', `const q = sql\`\n  ${wide}\n\`;\n`)).toEqual([]);
    // A substitution's own literal inside a statement does not end it early.
    expect(longLines('x.ts', `const q = \`\n  update t\n  set a = \${f(\`x\`)}\n  where '${wide}'\n\`;\n`)).toEqual([]);
    // Prose in a template literal is not SQL, nor is the code after a statement ends.
    expect(longLines('x.ts', `const m = \`\n  the ${wide}\n\`;\n`)).toHaveLength(1);
    expect(longLines('x.ts', `const q = \`select 1\`;\nconst y = '${wide}';\n`)).toHaveLength(1);
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
