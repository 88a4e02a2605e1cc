import { useState } from 'preact/hooks';
import type { AeqClient } from '../../../../packages/client/src/client.js';
import type { Artifact } from '../../../../packages/client/src/types.js';
import { describeError } from '../api.js';
import { html } from '../html.js';
import { useLoad } from '../poll.js';

/**
 * The evidence an answer's task kept (docs/contract.md#artifacts: `raw.json`, `page.html`, `screenshot.png` where
 * the engine made them), one link each. The routes want the key, which never goes into a URL: a click fetches the
 * bytes with the key in the header, as every call of the dashboard does, and saves them as a file. Nothing is shown
 * in the page: a kept page is an upstream's HTML, and opened from here it would run as the dashboard (with the key
 * in reach); saved, it runs nowhere. The link's own address is the route, which answers 401 to a browser without
 * the key.
 */
export function Evidence({ client, taskId }: { client: AeqClient; taskId: string }) {
  const listed = useLoad(() => client.artifacts(taskId), taskId);
  const [failure, setFailure] = useState<string | null>(null);
  if (listed.error)
    return html`<p class="muted small evidence" data-evidence="none">Evidence not available: ${listed.error}</p>`;
  const items = listed.data?.artifacts ?? null;
  if (items === null) return html`<p class="muted small evidence" data-evidence="loading">Evidence: …</p>`;
  if (items.length === 0) return html`<p class="muted small evidence" data-evidence="none">No evidence kept</p>`;
  const save = async (e: Event, a: Artifact) => {
    e.preventDefault();
    setFailure(null);
    try {
      const bytes = await client.artifact(taskId, a.name);
      // An opaque type: the file is saved, never rendered in the dashboard's origin.
      const url = URL.createObjectURL(new Blob([bytes.slice()], { type: 'application/octet-stream' }));
      const link = document.createElement('a');
      link.href = url;
      link.download = `${taskId}-${a.name}`;
      document.body.append(link);
      link.click();
      link.remove();
      setTimeout(() => URL.revokeObjectURL(url), 60_000);
    } catch (err) {
      setFailure(describeError(err));
    }
  };
  return html`<p class="muted small evidence" data-evidence="listed">Evidence:
    ${items.map(
      (a, i) =>
        html`${i > 0 ? ' · ' : ' '}<a href=${a.url} data-artifact=${a.name} data-kind=${a.kind}
          title=${`Save ${a.name} (${kib(a.bytes)}, ${a.contentType})`}
          onClick=${(e: Event) => save(e, a)}>${a.name}</a>`,
    )}
    ${failure ? html`<span class="error" role="alert"> ${failure}</span>` : null}
  </p>`;
}

function kib(bytes: number): string {
  return bytes < 1024 ? `${bytes} B` : `${(bytes / 1024).toFixed(bytes < 10_240 ? 1 : 0)} KiB`;
}
