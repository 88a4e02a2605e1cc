import type { AeqClient } from '../../../../packages/client/src/client.js';
import type {
  Polling,
  PromptResearchResult,
  SourceInfluenceResult,
  TaskFailure,
  TaskRequest,
} from '../../../../packages/client/src/types.js';
import { type Source, AnswerWithSources, BehindTheAnswer } from '../components/answer.js';
import { ErrorBox, Loading, StatusBadge } from '../components/bits.js';
import { askedText, when } from '../format.js';
import { html } from '../html.js';
import { useLoad } from '../poll.js';
import { href } from '../router.js';
import { PromptResearchView, SourceInfluenceView } from './analysis.js';
import { DeliveryLogView } from './deliveries.js';

const TERMINAL = new Set(['COMPLETED', 'FAILED']);

/** One task: what it asked, its state (live until it ends), and its answer beside its sources or its analysis. */
export function TaskView({ client, id, onKeyRefused }: { client: AeqClient; id: string; onKeyRefused: () => void }) {
  const loaded = useLoad<{ poll: Polling; asked: TaskRequest }>(
    async () => {
      const [poll, asked] = await Promise.all([client.get(id), client.taskRequest(id)]);
      return { poll, asked };
    },
    id,
    { everyMs: (d) => (TERMINAL.has(d.poll.task?.status ?? '') ? null : 1500), onKeyRefused },
  );
  if (loaded.data === null)
    return loaded.error ? html`<${ErrorBox} error=${loaded.error} />` : html`<${Loading} what="the task" />`;
  const { poll, asked } = loaded.data;
  const task = poll.task;
  const payload = asked.request?.payload as Record<string, unknown> | undefined;
  const response = (poll.response ?? {}) as Record<string, unknown>;
  return html`<article class="task" data-task-id=${task?.id}>
    <p class="crumbs"><a href=${href('tasks')}>Tasks</a> / ${task?.id}</p>
    <h1>${askedText(payload) || task?.taskType}</h1>
    <dl class="facts">
      <div><dt>Engine</dt><dd>${task?.taskType}</dd></div>
      <div><dt>Status</dt><dd><${StatusBadge} status=${task?.status} /></dd></div>
      <div><dt>Created</dt><dd>${when(task?.createdAt)}</dd></div>
      <div><dt>Finished</dt><dd>${when(asked.request?.finishedAt)}</dd></div>
      <div><dt>Country</dt><dd>${asked.request?.country ?? '—'}</dd></div>
      <div><dt>Attempts</dt><dd>${asked.request?.attempts ?? 0} of ${asked.request?.maxAttempts ?? '?'}</dd></div>
      <div><dt>Credits</dt><dd>${poll.credits?.creditsCharged ?? 0}</dd></div>
    </dl>
    <${ErrorBox} error=${loaded.error} />
    ${poll.error ? html`<p class="error task-error" role="alert">${poll.error}</p>` : null}
    ${poll.failure ? html`<${FailureReason} failure=${poll.failure} />` : null}
    ${
      TERMINAL.has(task?.status ?? '')
        ? null
        : html`<p class="muted" role="status">Waiting for the answer; this page follows the task.</p>`
    }
    ${task?.status === 'COMPLETED' ? html`<${Result} taskType=${task.taskType ?? ''} response=${response} />` : null}
    ${
      asked.request?.webhook
        ? html`<${DeliveryLogView} client=${client} id=${task?.id ?? id} onKeyRefused=${onKeyRefused} />`
        : null
    }
    <details class="raw">
      <summary>Raw JSON</summary>
      <pre>${JSON.stringify({ ...poll, request: asked.request }, null, 2)}</pre>
    </details>
  </article>`;
}

/** Why the last attempt failed: whose side, the reason's code, its sentence, the host and the attempts made. */
function FailureReason({ failure }: { failure: TaskFailure }) {
  const side = failure.origin === 'aeq' ? 'aeq (this service)' : 'the upstream';
  return html`<section class="failure" aria-label="Why it failed">
    <h2>Why it failed</h2>
    <p class="failure-message">${failure.message}</p>
    <dl class="facts">
      <div><dt>Reason</dt><dd><code class="failure-code">${failure.code}</code></dd></div>
      <div><dt>On the side of</dt><dd class="failure-origin">${side}</dd></div>
      <div><dt>Upstream host</dt><dd class="failure-host">${failure.upstreamHost ?? '—'}</dd></div>
      <div><dt>Attempts made</dt><dd class="failure-attempts">${failure.attempts}</dd></div>
    </dl>
  </section>`;
}

function Result({ taskType, response }: { taskType: string; response: Record<string, unknown> }) {
  if (taskType === 'PROMPT_RESEARCH') return html`<${PromptResearchView} r=${response as PromptResearchResult} />`;
  if (taskType === 'SOURCE_INFLUENCE') return html`<${SourceInfluenceView} r=${response as SourceInfluenceResult} />`;
  return html`<${AnswerWithSources}
      markdown=${typeof response.markdown === 'string' ? response.markdown : undefined}
      text=${typeof response.text === 'string' ? response.text : ''}
      sources=${Array.isArray(response.sources) ? (response.sources as Source[]) : []} />
    ${'searchTriggered' in response ? html`<${BehindTheAnswer} response=${response} />` : ''}`;
}
