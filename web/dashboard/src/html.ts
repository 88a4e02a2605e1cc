import htm from 'htm';
import { h } from 'preact';

/** JSX without a compiler: tagged templates that build Preact elements (htm). */
export const html = htm.bind(h);
