/** Git over a fetched repository snapshot, for the scripts that build corpus directories from one. */
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';

const ROOT = new URL('../../', import.meta.url);

/**
 * Runs git in the snapshot of `repo` (owner/name): the git directory `given` (a script's `--repo`), else
 * ../.mirror/<owner>+<name>/repo beside the checkout, where `fetch` puts it. A missing snapshot ends the script with
 * one line that says what to fetch, exit status 2, before any git command runs: a stack trace of git's "not a git
 * repository" says nothing of the fix.
 */
export function snapshotGit(repo: string, given?: string): (args: string[]) => Buffer {
  const gitDir = given ?? path.resolve(ROOT.pathname, `../.mirror/${repo.replace('/', '+')}/repo`);
  if (!fs.existsSync(path.join(gitDir, 'HEAD'))) {
    console.error(`no snapshot of ${repo} at ${gitDir}: fetch github:${repo} first, or give its git directory`);
    process.exit(2);
  }
  return (args) => execFileSync('git', ['--git-dir', gitDir, ...args], { maxBuffer: 64 * 1024 * 1024 });
}
