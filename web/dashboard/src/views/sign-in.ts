import { useEffect, useRef, useState } from 'preact/hooks';
import { clientFor, describeError } from '../api.js';
import { html } from '../html.js';

/**
 * Sign-in: an API key pasted once, checked against the service, then kept in this tab's session storage. The form
 * posts nowhere: the key never appears in a URL or a request but the API's Authorization header.
 */
export function SignIn({ onSignedIn, notice }: { onSignedIn: (key: string) => void; notice: string | null }) {
  const input = useRef<HTMLInputElement>(null);
  const [error, setError] = useState<string | null>(null);
  const [checking, setChecking] = useState(false);
  useEffect(() => input.current?.focus(), []);

  const submit = async (e: Event) => {
    e.preventDefault();
    const key = input.current?.value.trim() ?? '';
    if (!key) {
      setError('Paste an API key.');
      return;
    }
    setChecking(true);
    setError(null);
    try {
      await clientFor(key).monitors({ limit: 1 });
      onSignedIn(key);
    } catch (err) {
      setError(describeError(err));
      setChecking(false);
      input.current?.focus();
    }
  };

  return html`<main id="main" class="sign-in">
    <form class="card" onSubmit=${submit} aria-describedby="sign-in-help">
      <h1>aeq dashboard</h1>
      ${notice ? html`<p class="notice" role="status">${notice}</p>` : null}
      <label for="api-key">API key</label>
      <input id="api-key" name="api-key" type="password" autocomplete="off" spellcheck=${false} ref=${input}
        aria-invalid=${error ? 'true' : 'false'} aria-describedby=${error ? 'sign-in-error' : undefined} />
      <p id="sign-in-help" class="muted">
        The key of your account (aeq_…, or the service's configured key). It stays in this tab only and is sent
        to this service alone.
      </p>
      ${error ? html`<p id="sign-in-error" class="error" role="alert">${error}</p>` : null}
      <button type="submit" disabled=${checking}>${checking ? 'Checking…' : 'Sign in'}</button>
    </form>
  </main>`;
}
