import { render } from 'preact';
import { App } from './app.tsx';
import { applyTheme } from './theme.tsx';
import './styles.css';

// Before the first paint, so a dark system never flashes the light theme.
applyTheme();
render(<App />, document.getElementById('app')!);
