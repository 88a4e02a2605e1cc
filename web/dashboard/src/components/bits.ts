import type { ComponentChildren } from 'preact';
import { html } from '../html.js';

/** A task's status as a word and a colour (the word carries the meaning; the colour only helps). */
export function StatusBadge({ status }: { status: string | undefined }) {
  const s = status ?? 'UNKNOWN';
  return html`<span class=${`badge status-${s.toLowerCase()}`}>${s}</span>`;
}

export function SimulatedBadge({ simulated }: { simulated: unknown }) {
  return simulated
    ? html`<span class="badge simulated" title="Computed from the sandbox's simulated upstreams">simulated</span>`
    : null;
}

/**
 * Done of total as a bar that assistive technology reads as a progress bar. The failed among the done show as a red
 * segment after the others and are counted in words too (the colour only helps): a run that fails is never a full
 * blue bar.
 */
export function Progress({
  done,
  total,
  label,
  failed = 0,
}: {
  done: number;
  total: number;
  label: string;
  failed?: number;
}) {
  const pct = (n: number) => (total > 0 ? (n / total) * 100 : 0);
  const ok = Math.max(0, done - failed);
  const okWidth = total > 0 ? pct(ok) : 100;
  const failedText = failed > 0 ? `, ${failed} failed` : '';
  return html`<div class="progress" role="progressbar" aria-label=${label} aria-valuemin="0" aria-valuemax=${total}
    aria-valuenow=${done} aria-valuetext=${`${done} of ${total}${failedText}`} data-failed=${failed}>
    <div class="progress-fill" style=${{ width: `${okWidth}%` }}></div>
    ${
      failed > 0
        ? html`<div class="progress-failed" style=${{ left: `${okWidth}%`, width: `${pct(failed)}%` }}></div>`
        : null
    }
    <span class="progress-text">${done} / ${total}${failed > 0 ? html` · <strong>${failed} failed</strong>` : ''}</span>
  </div>`;
}

export function ErrorBox({ error }: { error: string | null }) {
  return error ? html`<p class="error" role="alert">${error}</p>` : null;
}

export function Loading({ what }: { what: string }) {
  return html`<p class="loading" role="status">Loading ${what}…</p>`;
}

/** A heading and the content of one part of a page. */
export function Section({ title, children, id }: { title: string; children: ComponentChildren; id?: string }) {
  return html`<section class="card" aria-labelledby=${id}>
    <h2 id=${id}>${title}</h2>
    ${children}
  </section>`;
}

/** A table that scrolls on its own on a narrow screen, never the page. */
export function TableWrap({ children, label }: { children: ComponentChildren; label: string }) {
  return html`<div class="table-wrap" role="region" aria-label=${label} tabindex="0">${children}</div>`;
}

/** A table's header row: one column heading each. */
export function Head({ cols }: { cols: string[] }) {
  return html`<thead>
    <tr>
      ${cols.map((c) => html`<th scope="col">${c}</th>`)}
    </tr>
  </thead>`;
}

/** A labelled drop-down of [value, text] options that reports the value chosen. */
export function Choice(p: {
  label: string;
  name: string;
  value: string;
  options: ReadonlyArray<readonly [string, string]>;
  onChange: (value: string) => void;
}) {
  return html`<label>
    ${p.label}
    <select name=${p.name} value=${p.value} onChange=${(e: Event) => p.onChange((e.target as HTMLSelectElement).value)}>
      ${p.options.map(([v, text]) => html`<option value=${v}>${text}</option>`)}
    </select>
  </label>`;
}

/**
 * A list's body: loading until the first answer (nothing when that failed: the error is shown above it), the empty
 * text when it has no row, else the table.
 */
export function listBody(
  loaded: { data: unknown; error: string | null },
  rows: number,
  what: string,
  empty: string,
  table: () => unknown,
) {
  if (loaded.data === null) return loaded.error ? null : html`<${Loading} what=${what} />`;
  return rows === 0 ? html`<p class="muted">${empty}</p>` : table();
}
