import { render } from 'preact';
import { App } from './app.js';
import { language, t } from './strings/index.js';

// The page says which language it speaks (screen readers pronounce by it).
document.documentElement.lang = language;
document.title = t.app.pageTitle;
const root = document.getElementById('app');
if (root !== null) render(<App />, root);
