/**
 * Text as HTML, for element content and double-quoted attribute values: `&`, `<`, `>` and `"` as entities (an
 * apostrophe means nothing there). The `html` rendering of answers and the simulated upstream pages use it.
 */
export function escapeHtml(s: string): string {
  return s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');
}
