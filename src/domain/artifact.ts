/**
 * A task's artefacts (docs/contract.md#artifacts): the evidence of an answer kept beside it for the retention window.
 * A task keeps them when its payload sets `include.artifacts` (a monitor's tasks always do). Names are fixed per
 * kind, never taken from a client or an upstream, so a stored file's path is built from a validated task id, the
 * attempt number and one of these names only.
 */

/** What an artefact is: the upstream payload as the engine read it, the page's HTML, the page as a user saw it. */
export type ArtifactKind = 'raw' | 'html' | 'screenshot';

/** One fixed name and content type per kind (the name is the last segment of its URL and of its file). */
export const ARTIFACT_KINDS: Readonly<Record<ArtifactKind, { name: string; contentType: string }>> = Object.freeze({
  raw: { name: 'raw.json', contentType: 'application/json; charset=utf-8' },
  html: { name: 'page.html', contentType: 'text/html; charset=utf-8' },
  screenshot: { name: 'screenshot.png', contentType: 'image/png' },
});

/** Order of the listing. */
export const ARTIFACT_KIND_ORDER: readonly ArtifactKind[] = ['raw', 'html', 'screenshot'];

/** An artefact as the task row records it (`tasks.artifacts`, JSON): where its bytes are and what they are. */
export interface StoredArtifact {
  name: string;
  kind: ArtifactKind;
  contentType: string;
  bytes: number;
  /** Hex SHA-256 of the bytes: the listing shows it and the download's ETag is made of it. */
  sha256: string;
  /** Epoch ms the file was written. */
  createdAt: number;
  /** The attempt that wrote it: a file lives under its attempt, so a late writer never replaces the kept one. */
  attempt: number;
}

/** The kind an artefact name stands for, or null for any other text (a name a client made up). */
export function artifactKindOf(name: string): ArtifactKind | null {
  for (const kind of ARTIFACT_KIND_ORDER) if (ARTIFACT_KINDS[kind].name === name) return kind;
  return null;
}

/** The stored manifest of a task (JSON text, or null when it kept none), read defensively: bad rows read as none. */
export function parseArtifacts(text: string | null | undefined): StoredArtifact[] {
  if (!text) return [];
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    return [];
  }
  if (!Array.isArray(parsed)) return [];
  const out: StoredArtifact[] = [];
  for (const item of parsed) {
    const a = storedArtifact(item);
    if (a) out.push(a);
  }
  return out;
}

function storedArtifact(v: unknown): StoredArtifact | null {
  if (!v || typeof v !== 'object') return null;
  const r = v as Record<string, unknown>;
  const kind = typeof r.name === 'string' ? artifactKindOf(r.name) : null;
  if (!kind || r.kind !== kind) return null;
  const { bytes, createdAt, attempt, sha256, contentType } = r;
  if (typeof bytes !== 'number' || typeof createdAt !== 'number' || typeof attempt !== 'number') return null;
  if (typeof sha256 !== 'string' || !/^[0-9a-f]{64}$/.test(sha256) || typeof contentType !== 'string') return null;
  if (!Number.isSafeInteger(attempt) || attempt < 1 || !Number.isSafeInteger(bytes) || bytes < 0) return null;
  return { name: ARTIFACT_KINDS[kind].name, kind, contentType, bytes, sha256, createdAt, attempt };
}
