import 'uplot/dist/uPlot.min.css';
import '../styles.css';
import { render } from 'preact';
import { useEffect, useMemo, useRef, useState } from 'preact/hooks';
import { clientFor } from './api.js';
import { html } from './html.js';
import { href, type Route, useRoute } from './router.js';
import { forgetKey, savedKey, saveKey } from './session.js';
import { AnalysesView } from './views/analyses.js';
import { BatchesView, BatchView } from './views/batches.js';
import { MonitorView } from './views/monitor.js';
import { MonitorsView } from './views/monitors.js';
import { SignIn } from './views/sign-in.js';
import { TaskView } from './views/task.js';
import { TasksView } from './views/tasks.js';

const SECTIONS = [
  ['monitors', 'Monitors'],
  ['tasks', 'Tasks'],
  ['batches', 'Batches'],
  ['analyses', 'Analyses'],
] as const;

function App() {
  const [key, setKey] = useState(savedKey);
  const [notice, setNotice] = useState<string | null>(null);
  const route = useRoute();
  const client = useMemo(() => (key ? clientFor(key) : null), [key]);
  const main = useRef<HTMLElement>(null);
  const place = route.segments.join('/');
  const arrived = useRef(false);
  // A new place: its name in the title, and the focus on its content (as a page load would put a reader there).
  useEffect(() => {
    const label = SECTIONS.find(([path]) => path === (route.segments[0] ?? 'monitors'))?.[1] ?? 'aeq';
    document.title = `${label} · aeq dashboard`;
    if (arrived.current) main.current?.focus();
    arrived.current = true;
  }, [place]);

  const signOut = (why: string | null) => {
    forgetKey();
    setNotice(why);
    setKey(null);
  };
  if (!client)
    return html`<${SignIn} notice=${notice} onSignedIn=${(k: string) => {
      saveKey(k);
      setNotice(null);
      setKey(k);
    }} />`;
  const onKeyRefused = () => signOut('The service refused the key (revoked or expired). Sign in again.');
  const section = route.segments[0] ?? 'monitors';

  return html`<div class="shell">
    <a class="skip" href="#" onClick=${(e: Event) => {
      e.preventDefault();
      main.current?.focus();
    }}>Skip to content</a>
    <header class="top">
      <a class="brand-mark" href=${href('monitors')}>aeq</a>
      <nav aria-label="Sections">
        <ul>
          ${SECTIONS.map(
            ([path, label]) =>
              html`<li><a href=${href(path)} aria-current=${section === path ? 'page' : undefined}>${label}</a></li>`,
          )}
        </ul>
      </nav>
      <button type="button" class="secondary sign-out" onClick=${() => signOut('Signed out.')}>Sign out</button>
    </header>
    <main id="main" ref=${main} tabindex="-1">
      <${Page} route=${route} client=${client} onKeyRefused=${onKeyRefused} />
    </main>
  </div>`;
}

function Page({
  route,
  client,
  onKeyRefused,
}: {
  route: Route;
  client: ReturnType<typeof clientFor>;
  onKeyRefused: () => void;
}) {
  const [section = 'monitors', id] = route.segments;
  const common = { client, onKeyRefused };
  switch (section) {
    case 'tasks':
      return id ? html`<${TaskView} ...${common} id=${id} />` : html`<${TasksView} ...${common} route=${route} />`;
    case 'batches':
      return id ? html`<${BatchView} ...${common} id=${id} />` : html`<${BatchesView} ...${common} />`;
    case 'analyses':
      return html`<${AnalysesView} ...${common} />`;
    case 'monitors':
      return id
        ? html`<${MonitorView} ...${common} id=${id} route=${route} />`
        : html`<${MonitorsView} ...${common} />`;
    default:
      return html`<p>Nothing here. <a href=${href('monitors')}>Back to the monitors</a>.</p>`;
  }
}

const root = document.getElementById('app');
if (root) {
  root.textContent = '';
  render(html`<${App} />`, root);
}
