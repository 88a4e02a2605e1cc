/** The host a webhook is shown by (`hook.example:8443`): its URL is never shown back, as it may carry a token. */
export function targetHostOf(url: string): string {
  try {
    return new URL(url).host;
  } catch {
    return '';
  }
}
