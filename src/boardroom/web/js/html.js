// Preact with htm: JSX-like templates without a build step.
import { h, render } from 'preact';
import htm from 'htm';

export const html = htm.bind(h);
export { render };
