/** Plain text from Markdown: the same content with markup removed (docs/engines.md#normalised-answer). */
export function markdownToText(md: string): string {
  return md
    .replace(/```[a-z]*\n([\s\S]*?)```/g, '$1')
    .replace(/!\[([^\]]*)\]\([^)]*\)/g, '$1')
    .replace(/\[([^\]]+)\]\((?:[^()]|\([^)]*\))*\)/g, '$1')
    .replace(/^#{1,6}\s+/gm, '')
    .replace(/^\s*>\s?/gm, '')
    .replace(/(\*\*|__)(.*?)\1/g, '$2')
    .replace(/(^|[^*\w])[*_]([^*_\n]+)[*_](?=[^*\w]|$)/g, '$1$2')
    .replace(/`([^`]+)`/g, '$1')
    .replace(/^\s*(?:\|\s*)?:?---.*$/gm, '')
    .replace(/(?<![ \t])[ \t]+$/gm, '')
    .replace(/\n{3,}/g, '\n\n')
    .trim();
}
