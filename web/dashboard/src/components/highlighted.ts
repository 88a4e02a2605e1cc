import type { MentionSpan } from '../../../../src/domain/monitor.js';
import { html } from '../html.js';

export type { MentionSpan };

/** An answer's text with the tracked brands marked where the service counted them (offsets from the run's results). */
export function Highlighted({ text, mentions }: { text: string; mentions: MentionSpan[] }) {
  const parts: unknown[] = [];
  let at = 0;
  for (const m of mentions) {
    if (m.start < at || m.end > text.length) continue;
    parts.push(text.slice(at, m.start));
    parts.push(
      html`<mark class=${m.role} title=${m.role === 'brand' ? `${m.brand} (your brand)` : m.brand}
        >${text.slice(m.start, m.end)}</mark
      >`,
    );
    at = m.end;
  }
  parts.push(text.slice(at));
  return html`<p class="answer-text">${parts}</p>`;
}
